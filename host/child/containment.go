package child

import (
	"fmt"
	"sync"
)

// Containment is the descendant containment Run puts every child in: a
// closed vocabulary with stable spellings, for `lola ext info` and the audit
// record.
type Containment uint8

// The containments. Add a member only together with its spelling in
// containmentNames; the round-trip test enforces that every member has one.
const (
	ContainmentUnknown Containment = iota // not a containment; the zero value

	// ContainmentCgroup (Linux): each child starts in a fresh cgroup v2
	// child of the host's own, delegated cgroup (CLONE_INTO_CGROUP, so it is
	// a member before it runs any code). The kill writes 1 to its
	// cgroup.kill, which reaches every process in it whatever session or
	// process group it moved to; cleanup removes the cgroup once empty.
	ContainmentCgroup
	// ContainmentSubreaper (Linux, no usable cgroup v2 subtree): the host
	// is a child subreaper (PR_SET_CHILD_SUBREAPER), so descendants orphaned
	// by a child's exit or kill are reparented to it; cleanup kills and
	// reaps them until none remain or the grace period ends.
	ContainmentSubreaper
	// ContainmentJobObject (Windows): each child runs in a job object with
	// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and no breakaway, assigned while
	// suspended, before its first instruction.
	ContainmentJobObject
	// ContainmentProcessGroup (macOS and other Unix): the child leads a
	// fresh process group and the kill signals the group. A descendant that
	// calls setsid() or setpgid() escapes it: the tier-2 trust model, not a
	// containment boundary.
	ContainmentProcessGroup
	// ContainmentNone (platforms without process groups): the kill reaches
	// the direct child only.
	ContainmentNone

	containmentEnd
)

var containmentNames = [...]string{
	ContainmentUnknown:      "",
	ContainmentCgroup:       "cgroup-v2",
	ContainmentSubreaper:    "subreaper",
	ContainmentJobObject:    "job-object",
	ContainmentProcessGroup: "process-group",
	ContainmentNone:         "none",
}

// Containments lists every member of the vocabulary, in declaration order.
func Containments() []Containment {
	out := make([]Containment, 0, int(containmentEnd)-1)
	for c := ContainmentUnknown + 1; c < containmentEnd; c++ {
		out = append(out, c)
	}
	return out
}

// String returns the containment's stable spelling, e.g. "cgroup-v2".
func (c Containment) String() string {
	if c < containmentEnd {
		return containmentNames[c]
	}
	return fmt.Sprintf("containment(%d)", uint8(c))
}

// ParseContainment returns the containment spelled s, or false if s is not one.
func ParseContainment(s string) (Containment, bool) {
	for c := ContainmentUnknown + 1; c < containmentEnd; c++ {
		if containmentNames[c] == s {
			return c, true
		}
	}
	return ContainmentUnknown, false
}

// MarshalText spells the containment; the zero value and out-of-range values are errors.
func (c Containment) MarshalText() ([]byte, error) {
	if c == ContainmentUnknown || c >= containmentEnd {
		return nil, fmt.Errorf("child: %d is not a containment", uint8(c))
	}
	return []byte(containmentNames[c]), nil
}

// UnmarshalText parses a containment spelling, refusing anything outside the vocabulary.
func (c *Containment) UnmarshalText(b []byte) error {
	v, ok := ParseContainment(string(b))
	if !ok {
		return fmt.Errorf("child: %q is not a containment", b)
	}
	*c = v
	return nil
}

// CurrentContainment reports the containment Run uses for every child this
// process starts, discovering it on the first call (on Linux: looking for a
// writable cgroup v2 subtree with cgroup.kill). The answer does not change
// for the life of the process; every Run uses the same one.
func CurrentContainment() Containment {
	choice.mu.Lock()
	defer choice.mu.Unlock()
	return choice.currentLocked()
}

// choice is the process-wide containment decision.
var choice containmentChoice

// containmentChoice is discovered once; forced is set only by tests
// (export_test.go), which exercise every path the machine can provide.
type containmentChoice struct {
	mu     sync.Mutex
	done   bool
	kind   Containment
	forced Containment
}

func (c *containmentChoice) currentLocked() Containment {
	if c.forced != ContainmentUnknown {
		return c.forced
	}
	if !c.done {
		c.kind, c.done = discoverContainment(), true
	}
	return c.kind
}
