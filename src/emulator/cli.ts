// Placeholder until the emulator lands (issue 3).
console.log('emulator: not built yet');
