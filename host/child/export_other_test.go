//go:build !linux

package child

func afterForcedContainment(Containment) {}
