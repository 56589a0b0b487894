// What the Edit / New Endpoint forms may send: each setting's allowed range, in the words the form shows beside
// the field, and the check run before anything is sent (issue 28: "every invalid value is refused before
// sending: the field, the allowed range, and nothing sent"). Ranges are the REST v2 document's (EndpointWorkers,
// QueueDelayScaling, RequestCountScaling, UpdateEndpointGpuConfig); pools are the GPU catalog's. No `vscode`
// import: the webview bundles this file too, so a value is refused as it is typed, and the host checks again.
import { REQUEST_COUNT_SCALE_DOWN_MS } from '../core/serverless/scaleDown';
import type { EndpointSettings } from '../core/serverless/endpointEdit';

/** The form's values: the execution timeout in seconds (the service's `timeout` is milliseconds). */
export interface FormValues {
  workersMin: number;
  workersMax: number;
  idleTimeout: number | undefined;
  scalerType: 'QUEUE_DELAY' | 'REQUEST_COUNT';
  scalerValue: number;
  timeoutSeconds: number;
  gpuPools: string[];
  gpuCount: number;
  flashboot: 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT';
  /** The container image: a change cuts a release that workers roll over to. */
  image: string;
}

export type FormField = keyof FormValues;

/** Each field's allowed range as the form prints it beside the field. */
export function rangeText(field: FormField, v: Pick<FormValues, 'workersMin' | 'workersMax' | 'scalerType'>): string {
  switch (field) {
    case 'workersMin': return `whole number, 0 to workers max (${v.workersMax})`;
    case 'workersMax': return `whole number, at least workers min (${v.workersMin})`;
    // The service refuses and omits it on REQUEST_COUNT (REST v2 reference); its own delay applies there, the one
    // Tune Endpoint replays (core/serverless/scaleDown.ts).
    case 'idleTimeout': return v.scalerType === 'REQUEST_COUNT'
      ? `not a setting on REQUEST_COUNT: idle workers stop after the platform's own ${REQUEST_COUNT_SCALE_DOWN_MS / 1000} s`
      : 'whole seconds, 1 to 3600';
    case 'scalerType': return 'QUEUE_DELAY or REQUEST_COUNT';
    case 'scalerValue': return v.scalerType === 'REQUEST_COUNT' ? 'requests per worker, whole number, at least 1' : 'seconds of queue wait, at least 0.5';
    case 'timeoutSeconds': return 'whole seconds, 0 or more';
    case 'gpuPools': return 'one or more pools of the GPU catalog';
    case 'gpuCount': return 'whole number, at least 1';
    case 'flashboot': return 'OFF, FLASHBOOT or PRIORITY_FLASHBOOT';
    case 'image': return 'a container image name, not empty (a change cuts a release)';
  }
}

export interface FieldError {
  field: FormField;
  message: string;
}

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
const isNum = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Every invalid value of `v`, each naming its field and its allowed range. Empty: the values may be sent. */
export function checkValues(v: FormValues, knownPools: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (field: FormField, got: unknown): void => {
    errors.push({ field, message: `${LABELS[field]}: ${got === undefined || got === null || (typeof got === 'number' && Number.isNaN(got)) ? 'missing' : JSON.stringify(got)} is not allowed (${rangeText(field, v)})` });
  };
  if (!isInt(v.workersMin) || v.workersMin < 0 || (isInt(v.workersMax) && v.workersMin > v.workersMax)) bad('workersMin', v.workersMin);
  if (!isInt(v.workersMax) || v.workersMax < 0 || (isInt(v.workersMin) && v.workersMax < v.workersMin)) bad('workersMax', v.workersMax);
  if (v.scalerType !== 'QUEUE_DELAY' && v.scalerType !== 'REQUEST_COUNT') bad('scalerType', v.scalerType);
  if (v.scalerType === 'REQUEST_COUNT' ? !isInt(v.scalerValue) || v.scalerValue < 1 : !isNum(v.scalerValue) || v.scalerValue < 0.5) bad('scalerValue', v.scalerValue);
  if (v.scalerType !== 'REQUEST_COUNT' && (!isInt(v.idleTimeout) || v.idleTimeout < 1 || v.idleTimeout > 3600)) bad('idleTimeout', v.idleTimeout);
  if (!isInt(v.timeoutSeconds) || v.timeoutSeconds < 0) bad('timeoutSeconds', v.timeoutSeconds);
  if (!Array.isArray(v.gpuPools) || !v.gpuPools.length || v.gpuPools.some((p) => !knownPools.includes(p))) bad('gpuPools', v.gpuPools);
  if (!isInt(v.gpuCount) || v.gpuCount < 1) bad('gpuCount', v.gpuCount);
  if (!['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'].includes(v.flashboot)) bad('flashboot', v.flashboot);
  if (typeof v.image !== 'string' || !v.image.trim() || /\s/.test(v.image.trim())) bad('image', v.image);
  return errors;
}

export const LABELS: Record<FormField, string> = {
  workersMin: 'workers min', workersMax: 'workers max', idleTimeout: 'idle timeout', scalerType: 'scaler type',
  scalerValue: 'scaler value', timeoutSeconds: 'execution timeout', gpuPools: 'GPU pools', gpuCount: 'GPUs per worker',
  flashboot: 'flashboot', image: 'image',
};

/** The form's values of an endpoint's settings. */
export function formValuesOf(s: EndpointSettings): FormValues {
  return {
    workersMin: s.workersMin, workersMax: s.workersMax, idleTimeout: s.idleTimeout, scalerType: s.scalerType,
    scalerValue: s.scalerValue, timeoutSeconds: Math.round(s.timeout / 1000), gpuPools: [...s.gpuPools], gpuCount: s.gpuCount,
    flashboot: s.flashboot, image: s.image,
  };
}

/** The settings the form's values stand for (only the fields the form edits). */
export function settingsOfForm(v: FormValues): Partial<EndpointSettings> {
  return {
    workersMin: v.workersMin, workersMax: v.workersMax,
    ...(v.scalerType === 'REQUEST_COUNT' ? {} : { idleTimeout: v.idleTimeout }),
    scalerType: v.scalerType, scalerValue: v.scalerValue, timeout: v.timeoutSeconds * 1000,
    gpuPools: [...v.gpuPools], gpuCount: v.gpuCount, flashboot: v.flashboot,
    image: v.image.trim(),
  };
}

/**
 * A new endpoint's settings before the user changes any: the REST v2 create defaults (workers 0..3, idle
 * timeout 10 s, execution timeout 300 s, flashboot OFF) and the document's example scaler (QUEUE_DELAY, 4 s).
 */
export const NEW_ENDPOINT_DEFAULTS: Omit<FormValues, 'gpuPools' | 'image'> = {
  workersMin: 0, workersMax: 3, idleTimeout: 10, scalerType: 'QUEUE_DELAY', scalerValue: 4, timeoutSeconds: 300,
  gpuCount: 1, flashboot: 'OFF',
};
