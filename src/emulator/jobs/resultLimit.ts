// The platform's cap on a job's result (about 20 MB): a worker's result post over it is refused with a 400 and
// the job fails, and its users are told to upload files (s3Config) and return links. One message for every
// kind of worker, simulated or a real handler, so a client learns one failure.
import { RESULT_LIMIT_BYTES } from '../../core/outputs/resultNotes';

export { RESULT_LIMIT_BYTES };

export function resultTooLargeMessage(bytes: number): string {
  return `Job result payload too large: ${(bytes / 1e6).toFixed(1)} MB, over the 20 MB limit for a job's result. Upload files (s3Config) and return their URLs instead.`;
}
