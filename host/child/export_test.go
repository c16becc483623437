package child

// ForceContainment makes every later Run use c, as if discovery had chosen
// it, until the returned func restores discovery's choice. Tests only: a
// test forcing a containment the machine cannot provide gets start errors.
func ForceContainment(c Containment) (restore func()) {
	choice.mu.Lock()
	prev := choice.forced
	choice.forced = c
	choice.mu.Unlock()
	return func() {
		choice.mu.Lock()
		choice.forced = prev
		choice.mu.Unlock()
		afterForcedContainment(c)
	}
}
