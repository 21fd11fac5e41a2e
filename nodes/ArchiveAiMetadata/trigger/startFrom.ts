/** "Start From" is read like every date-time parameter of the package: see the shared conversion. */
export { dateTimeToUtc as startFromToUtc } from '../../shared/n8n/dateTime';
