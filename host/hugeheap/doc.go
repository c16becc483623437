// Package hugeheap lets a process that is about to touch tens of megabytes
// of Go heap it never had before take them in transparent huge pages.
//
// On the machines lola is measured on, a first touch of a 4 KiB page costs
// about 13 µs (a virtualised page fault), so a run that grows its heap by
// 50 MiB spends over 150 ms faulting. In 2 MiB pages the same growth is a
// few dozen faults. The Go runtime does not ask for huge pages itself, and
// maps its heap in steps, each a mapping of its own that no earlier advice
// reaches, so Reserve makes the range exist first, advises it, and gives
// it back to the allocator, whose next allocations take it (the page
// allocator prefers the lowest free address, and the reservation is the
// heap's largest free run).
//
// Guarantees: Reserve and Advise change nothing but speed and where
// resident memory is counted; every error is ignored; on systems without
// transparent huge pages (or with them "never", or not on Linux) both are
// no-ops apart from Reserve's one collection. Non-guarantees: the kernel
// may still back the range with small pages (fragmentation, "defer"
// defrag modes), and a huge page is resident in whole once touched, so a
// process may count up to 2 MiB more per touched region.
package hugeheap
