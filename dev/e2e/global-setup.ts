import { ensureN8nInstall, selectedN8nVersions } from '../n8n/install';

// Installs (or finds cached) every selected n8n before any test starts, so that a cold install
// (minutes) never counts against a test's timeout.
export default function globalSetup(): void {
	for (const version of selectedN8nVersions()) ensureN8nInstall(version);
}
