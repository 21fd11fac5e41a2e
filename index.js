// n8n discovers this package's nodes and credentials through the "n8n" field of package.json;
// nothing needs to be exported here.
module.exports = {};
