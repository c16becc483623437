package audit

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
)

// Correlation ties a plan record to its events and its outcome: 128 random
// bits, spelled as 32 lowercase hex digits. The zero Correlation is not a
// valid id; IsZero reports it.
type Correlation struct {
	id [16]byte
}

// NewCorrelation returns a fresh random id from crypto/rand.
func NewCorrelation() (Correlation, error) {
	var c Correlation
	if _, err := rand.Read(c.id[:]); err != nil {
		return Correlation{}, fmt.Errorf("audit: correlation id: %w", err)
	}
	if c.IsZero() { // 2^-128; refuse rather than emit the invalid id
		return Correlation{}, errors.New("audit: correlation id: random source returned zeros")
	}
	return c, nil
}

// ParseCorrelation parses the 32-hex-digit form. The executor's journal
// stores that form so crash recovery can log against the original id.
func ParseCorrelation(s string) (Correlation, error) {
	var c Correlation
	if len(s) != 32 {
		return Correlation{}, fmt.Errorf("audit: correlation id must be 32 hex digits, got %d characters", len(s))
	}
	for i := 0; i < len(s); i++ {
		if ch := s[i]; !('0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f') {
			return Correlation{}, errors.New("audit: correlation id must be lowercase hex")
		}
	}
	if _, err := hex.Decode(c.id[:], []byte(s)); err != nil {
		return Correlation{}, errors.New("audit: correlation id must be lowercase hex")
	}
	if c.IsZero() {
		return Correlation{}, errors.New("audit: the zero correlation id is not valid")
	}
	return c, nil
}

// String is the 32-hex-digit form ("" for the zero value).
func (c Correlation) String() string {
	if c.IsZero() {
		return ""
	}
	return hex.EncodeToString(c.id[:])
}

// IsZero reports whether c is the zero value.
func (c Correlation) IsZero() bool { return c.id == [16]byte{} }

// MarshalText spells c; the zero value is an error.
func (c Correlation) MarshalText() ([]byte, error) {
	if c.IsZero() {
		return nil, errors.New("audit: zero correlation id")
	}
	return []byte(c.String()), nil
}

// UnmarshalText parses the 32-hex-digit form.
func (c *Correlation) UnmarshalText(b []byte) error {
	v, err := ParseCorrelation(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
