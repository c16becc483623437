package extension

import "github.com/lola-pm/lola/host/audit"

// Confinement is what the current kernel lets the tier-1 shim add to
// wazero's sandbox, as probed now. It is a forecast for `lola ext info`;
// the shim reports what it actually achieved in each run's audit record.
type Confinement struct {
	OS          string        // runtime.GOOS
	LandlockABI int           // 0: no Landlock (or not Linux)
	Seccomp     bool          // the kernel accepts seccomp filters and the shim has one for this architecture
	Layers      []audit.Layer // the tier-1 layers, in audit's spelling
	Note        string        // why a layer is missing, for people; "" when none is
}

// tier1Base are the layers every tier-1 run has, on every platform.
var tier1Base = []audit.Layer{audit.LayerWazero, audit.LayerMemoryLimit, audit.LayerClock}

// ProbeConfinement probes the running kernel. On Linux: the Landlock ABI
// version (filesystem layer from ABI 1, TCP from ABI 4) and seccomp filter
// support (prctl PR_GET_SECCOMP). On other systems the shim's OS step is a
// no-op: wazero only.
func ProbeConfinement() Confinement { return probeConfinement() }
