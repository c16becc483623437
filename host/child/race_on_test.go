//go:build race

package child_test

// raceEnabled: under -race a child's exit is delayed by the race runtime's
// exit sleep (GORACE exitsleep, 1 s), so timing-dependent checks relax.
const raceEnabled = true
