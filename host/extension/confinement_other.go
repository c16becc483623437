//go:build !linux

package extension

import (
	"runtime"

	"github.com/lola-pm/lola/host/audit"
)

func probeConfinement() Confinement {
	return Confinement{
		OS:     runtime.GOOS,
		Layers: append([]audit.Layer(nil), tier1Base...),
		Note:   "none: wazero only (no OS confinement layer on " + runtime.GOOS + ")",
	}
}
