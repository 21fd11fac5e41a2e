import * as os from 'node:os';
import * as path from 'node:path';

// n8n-core's instance settings live in the n8n user folder; keep them out of the developer's ~/.n8n.
process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'n8n-nodes-archive-services-test-n8n');
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
