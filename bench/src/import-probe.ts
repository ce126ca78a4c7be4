// Workload 5's probe, run in a fresh process per sample: imports the given
// modules and prints how long that took, in milliseconds.
const specifiers = process.argv.slice(2);
const start = performance.now();
for (const specifier of specifiers) await import(specifier);
process.stdout.write(`${performance.now() - start}\n`);
