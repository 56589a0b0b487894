// The version of the platform's Python package (`runpod`) the emulator's worker protocol is built from and tested
// with (scripts/python-env.mjs pins the same).
export const RUNPOD_PIN = '1.12.0';
