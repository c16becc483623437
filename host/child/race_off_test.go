//go:build !race

package child_test

const raceEnabled = false
