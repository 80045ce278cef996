/**
 * How the canvas library's allocator gets its memory. Imported before `@napi-rs/canvas`, whose
 * allocator (mimalloc) reads its options from the environment when the library loads.
 *
 * By default that allocator asks for transparent huge pages on its arena. Reading a video picture
 * back from the canvas allocates 691 KB (360 × 480 RGBA) each time, the freed block goes back to
 * the system, and the next one lands on a fresh 2 MB huge page that the kernel must zero first:
 * about one huge page every other picture. Measured on the reference machine (a 2-core VM), that
 * made a readback cost 0.25-4 ms (mean ≈ 3.8 ms), most of it in the kernel zeroing pages, for 40
 * pictures a second while a machine moves. With huge pages off the same readback costs
 * 0.45-0.65 ms, every time. An explicit MIMALLOC_ALLOW_THP in the environment wins.
 */
process.env.MIMALLOC_ALLOW_THP ??= '0';

export {};
