/** Generated text content of the AI views: titles, transcripts (json/srt/vtt/txt), raw engine output. */
import { Random } from '../core/random';

const PHRASES = [
	'Goedenavond en welkom bij het journaal.',
	'De burgemeester opende vandaag het nieuwe cultuurcentrum.',
	'In het archief vonden we beelden uit de jaren zestig.',
	'Het weer blijft morgen wisselvallig met enkele buien.',
	'De haven van Antwerpen kende een recordjaar.',
	'Op het festival traden meer dan veertig groepen op.',
	'De minister reageerde op de vragen van de pers.',
	'Na de pauze volgt een reportage over de kust.',
	'Het orkest speelde werk van een Vlaamse componist.',
	'De renner won de etappe na een lange ontsnapping.',
	'Leerlingen bezochten het museum voor een workshop.',
	'De brug werd na twee jaar werken heropend.',
	'Café De Zwaan viert zijn honderdste verjaardag.',
	'Het debat ging over het onderwijs van morgen.',
	'Voor de kijkers thuis: dit was het nieuws.',
	'De schepen lagen klaar in de dokken.',
	'Een reeks archiefbeelden toont het dagelijkse leven.',
	'Het publiek gaf een staande ovatie.',
	'De oogst was dit jaar uitzonderlijk goed.',
	'We schakelen over naar onze correspondent ter plaatse.',
];

const TITLE_SUBJECTS = [
	'Journaal',
	'Panorama',
	'Koers',
	'Festivalzomer',
	'Stad en land',
	'Kunstuur',
	'Schoolslag',
	'Havenkroniek',
	'Weerbericht',
	'Debat',
	'Archiefparels',
	'Straatbeeld',
	'Muziekpodium',
	'Kustverhalen',
	'Erfgoeddag',
];

export function titleFor(rng: Random): string {
	const subject = rng.pick(TITLE_SUBJECTS);
	const year = rng.int(1955, 2020);
	return rng.chance(0.5) ? `${subject} ${year}` : `${subject}: aflevering ${rng.int(1, 250)}`;
}

export interface Segment {
	start: number;
	end: number;
	text: string;
}

export function segmentsFor(rng: Random): Segment[] {
	const count = rng.int(3, 8);
	const segments: Segment[] = [];
	let cursor = rng.float(0, 2, 3);
	for (let i = 0; i < count; i++) {
		const duration = rng.float(1.5, 6, 3);
		segments.push({ start: cursor, end: round3(cursor + duration), text: rng.pick(PHRASES) });
		cursor = round3(cursor + duration + rng.float(0.1, 1.5, 3));
	}
	return segments;
}

function round3(value: number): number {
	return Math.round(value * 1000) / 1000;
}

function clock(seconds: number, fractionSeparator: ',' | '.'): string {
	const totalMs = Math.round(seconds * 1000);
	const hours = Math.floor(totalMs / 3_600_000);
	const minutes = Math.floor((totalMs % 3_600_000) / 60_000);
	const secs = Math.floor((totalMs % 60_000) / 1000);
	const ms = totalMs % 1000;
	const pad = (value: number, width = 2) => String(value).padStart(width, '0');
	return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${fractionSeparator}${pad(ms, 3)}`;
}

export function toSrt(segments: Segment[]): string {
	return segments
		.map(
			(segment, index) =>
				`${index + 1}\n${clock(segment.start, ',')} --> ${clock(segment.end, ',')}\n${segment.text}\n`,
		)
		.join('\n');
}

export function toVtt(segments: Segment[]): string {
	const cues = segments.map(
		(segment) => `${clock(segment.start, '.')} --> ${clock(segment.end, '.')}\n${segment.text}\n`,
	);
	return `WEBVTT\n\n${cues.join('\n')}`;
}

export function toTxt(segments: Segment[]): string {
	return `${segments.map((segment) => segment.text).join('\n')}\n`;
}

export function transcriptJson(segments: Segment[], rng: Random): string {
	return JSON.stringify({
		language: 'nl',
		engine: 'speech-engine',
		segments: segments.map((segment, id) => ({
			id,
			start: segment.start,
			end: segment.end,
			text: segment.text,
			confidence: rng.float(0.6, 1, 3),
		})),
	});
}

const AUDIO_CLASSES = ['speech', 'music', 'silence', 'applause', 'noise'];

export function audioClassificationJson(rng: Random, durationSeconds: number): string {
	const windows = [];
	for (let start = 0; start < durationSeconds; start += 5) {
		windows.push({
			start,
			end: Math.min(start + 5, round3(durationSeconds)),
			label: rng.pick(AUDIO_CLASSES),
			score: rng.float(0.5, 1, 3),
		});
	}
	return JSON.stringify({ model: 'audio-classifier', windows });
}

export function speechStatistics(rng: Random, segments: Segment[]): string {
	const words = segments.reduce((total, segment) => total + segment.text.split(/\s+/).length, 0);
	return JSON.stringify({
		duration_seconds: segments.length ? segments[segments.length - 1].end : 0,
		n_segments: segments.length,
		n_words: words,
		avg_confidence: rng.float(0.7, 0.99, 3),
		real_time_factor: rng.float(0.05, 0.5, 3),
	});
}

const ENTITIES: Array<[string, string]> = [
	['Antwerpen', 'LOC'],
	['Gent', 'LOC'],
	['Brussel', 'LOC'],
	['Oostende', 'LOC'],
	['Schelde', 'LOC'],
	['Vlaams Parlement', 'ORG'],
	['VRT', 'ORG'],
	['Koninklijk Conservatorium', 'ORG'],
	['Eddy Merckx', 'PER'],
	['Jacques Brel', 'PER'],
	['Hugo Claus', 'PER'],
	['Annie M.G. Schmidt', 'PER'],
	['Ronde van Vlaanderen', 'MISC'],
	['Gentse Feesten', 'MISC'],
];

export function nerOutputs(rng: Random): { processed: string; vendor: string } {
	const count = rng.int(1, 6);
	const entities = [];
	for (let i = 0; i < count; i++) {
		const [text, label] = rng.pick(ENTITIES);
		entities.push({ text, label, start_char: rng.int(0, 400), relevance: rng.float(0.3, 1, 3) });
	}
	const processed = JSON.stringify({
		entities: entities.map(({ text, label }) => ({ text, type: label })),
		language: 'nl',
	});
	const vendor = JSON.stringify({
		document: {
			lang: 'nl',
			entities: entities.map(({ text, label, start_char, relevance }) => ({
				surface: text,
				category: label,
				offset: start_char,
				score: relevance,
			})),
		},
	});
	return { processed, vendor };
}

export const TASK_ERRORS = [
	'Media file could not be decoded',
	'Timeout while waiting for the GPU worker',
	'No audio stream found in the media object',
	'Fragment is too short for analysis',
	'Unexpected error in pipeline step detect_faces',
];

export const REFSET_DESCRIPTIONS = [
	'Vlaams politicus',
	'Belgisch wielrenner',
	'Nederlandstalig schrijver',
	'Nieuwslezer',
	'Zangeres',
	'Acteur en regisseur',
	'Burgemeester',
	'Journalist',
	'Componist',
	'Voetballer',
];
