/** The demo's n8n owner account: public demo values, printed for the newcomer (n8n asks for 8+ characters, a digit and a capital). */
export const DEMO_OWNER = {
	email: 'demo@archive.test',
	firstName: 'Demo',
	lastName: 'Archivist',
	password: 'Demo-Archive-2025',
};
