import { newCredentialId, packageUnderTest } from '../../n8n/package';
import { EventSink } from '../lib/fault-burst';
import { QueueCluster } from './cluster';
import { queueVersions } from './selection';
import { newSigningSecret } from './sip';
import { soakTableHeader, soakTableRow, type SoakFigures, type SoakSettings } from './figures';
import { FULL_SOAK, runSoak, soakReceiver } from './soak-run';

// Issue 23 item 6 in full: the SIP trigger under sustained volume in real n8n queue mode (2 webhook processors, 2
// workers), no faults (dev/e2e/queue/soak-run.ts says what is sent). Every event must run exactly once. Prints the
// first and last thousand events' latency side by side. `npm test` runs a reduced soak (queue-mode.test.ts). Needs
// `npm run build` first.
//   node scripts/run-ts.js dev/e2e/queue/soak.ts
//   SOAK_EVENTS (20000), SOAK_RATE (events/s, 6, reached over 30 s), SOAK_RETRY_SHARE (0.05), SOAK_REPLAY_SHARE (0.01),
//   SOAK_REPLAY_AFTER_S (600), SOAK_RESPOND (afterSaved | immediately), E2E_QUEUE_N8N_VERSIONS

function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SoakSettings {
	const number = (name: string, fallback: number) => {
		const value = Number(env[name] ?? fallback);
		if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0`);
		return value;
	};
	const respond = env.SOAK_RESPOND ?? FULL_SOAK.respond;
	if (respond !== 'afterSaved' && respond !== 'immediately')
		throw new Error('SOAK_RESPOND must be afterSaved or immediately');
	return {
		events: number('SOAK_EVENTS', FULL_SOAK.events),
		ratePerSecond: number('SOAK_RATE', FULL_SOAK.ratePerSecond) || FULL_SOAK.ratePerSecond,
		retryShare: number('SOAK_RETRY_SHARE', FULL_SOAK.retryShare),
		replayShare: number('SOAK_REPLAY_SHARE', FULL_SOAK.replayShare),
		replayAfterMs: number('SOAK_REPLAY_AFTER_S', FULL_SOAK.replayAfterMs / 1000) * 1000,
		respond,
	};
}

async function soakVersion(version: string, settings: SoakSettings): Promise<SoakFigures> {
	const secret = newSigningSecret();
	const cluster = await QueueCluster.create({ version, ...packageUnderTest() });
	const sink = await EventSink.start();
	try {
		const credential = { id: newCredentialId(), name: 'soak signing secret' };
		await cluster.importCredentials([
			{ ...credential, type: 'archiveSipWebhookApi', data: { signingSecret: secret } },
		]);
		const receiver = soakReceiver(settings, cluster.webhookBaseUrls[0], credential, sink.url);
		await cluster.importWorkflow(receiver.workflow);
		await cluster.activate(receiver.workflow.id, receiver.workflow.name);
		await cluster.start();
		const figures = await runSoak(cluster, receiver, secret, sink, settings, version);
		console.log(`soak ${JSON.stringify(figures)}`);
		return figures;
	} finally {
		await cluster.dispose();
		await sink.close();
	}
}

async function main(): Promise<void> {
	const settings = settingsFromEnv();
	const figures: SoakFigures[] = [];
	for (const version of queueVersions()) figures.push(await soakVersion(version, settings));
	console.log(['', ...soakTableHeader(settings), ...figures.map(soakTableRow)].join('\n'));
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
