package extension

import (
	"fmt"
	"slices"

	"github.com/lola-pm/lola/host/audit"
)

// Kind is what an extension does. Closed; the string form is the manifest's
// spelling.
type Kind string

// Kinds of extension.
const (
	KindTarget Kind = "target" // turns a module list into an assistant's files
	KindSource Kind = "source" // brings a module in (fetch, clone intents)
	KindHook   Kind = "hook"   // runs around an install; tier 2 only; writes no plan
)

// Kinds lists every kind.
func Kinds() []Kind { return []Kind{KindTarget, KindSource, KindHook} }

// ParseKind returns the kind spelled s, or an error naming s.
func ParseKind(s string) (Kind, error) { return parse("kind", s, Kinds()) }

// String is the manifest spelling.
func (k Kind) String() string { return string(k) }

// MarshalText refuses a value outside the vocabulary.
func (k Kind) MarshalText() ([]byte, error) { return marshal("kind", k, Kinds()) }

// UnmarshalText refuses a spelling outside the vocabulary.
func (k *Kind) UnmarshalText(b []byte) (err error) { *k, err = ParseKind(string(b)); return }

// Tier is how an extension's artifact runs. Closed; the string form is the
// key under the manifest's artifacts (tier1, tier2). The audit log spells a
// tier with audit.Tier; AuditTier maps one to the other.
type Tier string

// Tiers.
const (
	Tier1 Tier = "tier1" // a WASI preview 1 module, run confined by the shim
	Tier2 Tier = "tier2" // a native executable, trusted rather than confined
)

// Tiers lists every tier, in order of preference.
func Tiers() []Tier { return []Tier{Tier1, Tier2} }

// ParseTier returns the tier spelled s, or an error naming s.
func ParseTier(s string) (Tier, error) { return parse("tier", s, Tiers()) }

// String is the manifest spelling.
func (t Tier) String() string { return string(t) }

// MarshalText refuses a value outside the vocabulary.
func (t Tier) MarshalText() ([]byte, error) { return marshal("tier", t, Tiers()) }

// UnmarshalText refuses a spelling outside the vocabulary.
func (t *Tier) UnmarshalText(b []byte) (err error) { *t, err = ParseTier(string(b)); return }

// Describe names what an artifact of tier t is, for messages: "the
// tier-1 module" or "the native (tier-2) artifact".
func (t Tier) Describe() string {
	if t == Tier2 {
		return "the native (tier-2) artifact"
	}
	return "the tier-1 module"
}

// Native reports whether t runs unconfined native code.
func (t Tier) Native() bool { return t == Tier2 }

// AuditTier is how the audit log names a run of an artifact of tier t by an
// extension of kind k: wasm/tier1, native/tier2, or native/hook for a hook
// (always tier 2). The zero audit.Tier means t or k is outside its
// vocabulary.
func AuditTier(t Tier, k Kind) audit.Tier {
	switch {
	case t == Tier2 && k == KindHook:
		return audit.TierHook
	case t == Tier1 && k != KindHook && validKind(k):
		return audit.TierWasm
	case t == Tier2 && validKind(k):
		return audit.TierNative
	}
	return ""
}

func validKind(k Kind) bool { return slices.Contains(Kinds(), k) }

// Source is where an extension was found. Closed.
type Source string

// Sources.
const (
	SourceBuiltin Source = "builtin" // provided by the lola binary (RegisterBuiltin)
	SourceHome    Source = "home"    // $LOLA_HOME/extensions/<name>/
	SourceDir     Source = "dir"     // a directory named explicitly (Load)
	SourceDev     Source = "dev"     // a development directory registered by ext link, re-read on every run
)

// Sources lists every source.
func Sources() []Source { return []Source{SourceBuiltin, SourceHome, SourceDir, SourceDev} }

// ParseSource returns the source spelled s, or an error naming s.
func ParseSource(s string) (Source, error) { return parse("source", s, Sources()) }

// String is the stable spelling.
func (s Source) String() string { return string(s) }

// MarshalText refuses a value outside the vocabulary.
func (s Source) MarshalText() ([]byte, error) { return marshal("source", s, Sources()) }

// UnmarshalText refuses a spelling outside the vocabulary.
func (s *Source) UnmarshalText(b []byte) (err error) { *s, err = ParseSource(string(b)); return }

func parse[T ~string](what, s string, all []T) (T, error) {
	if slices.Contains(all, T(s)) {
		return T(s), nil
	}
	var zero T
	return zero, fmt.Errorf("%s is not a %s (want one of %s)", quote(s), what, list(all))
}

func marshal[T ~string](what string, v T, all []T) ([]byte, error) {
	if !slices.Contains(all, v) {
		return nil, fmt.Errorf("extension: %q is not a %s", string(v), what)
	}
	return []byte(v), nil
}

func list[T ~string](all []T) string {
	s := ""
	for i, m := range all {
		if i > 0 {
			s += ", "
		}
		s += string(m)
	}
	return s
}
