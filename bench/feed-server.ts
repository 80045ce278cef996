// The server bench:feed starts: server/main.ts itself, under a name of its own in the process list
// (a clean-up elsewhere on the machine that ends processes naming server/main.ts, seen while
// another benchmark shared it, then leaves the benchmark's server running).
import '../server/main';
