package sigverify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Bounds of the exchange with the helper. A request carries at most
// MaxTrustedRootBytes of trusted root, MaxBundleBytes of bundle and
// MaxKeys keys of MaxKeyBytes, base64-encoded; a response is one signer or
// one error message.
const (
	MaxTrustedRootBytes = 4 << 20
	MaxBundleBytes      = 1 << 20
	MaxKeys             = 64
	MaxRequestBytes     = (MaxTrustedRootBytes+MaxBundleBytes+MaxKeys*MaxKeyBytes)*4/3 + 64<<10
	MaxResponseBytes    = 64 << 10
)

// Request is what lola asks the helper: does Bundle verify for the
// artifact whose sha256 is Digest (hex), under this policy?
type Request struct {
	Keys        []Key      `json:"keys,omitempty"`
	Identities  []Identity `json:"identities,omitempty"`
	TrustedRoot []byte     `json:"trusted_root,omitempty"` // JSON; empty when no identity is trusted
	Digest      string     `json:"digest"`
	Bundle      []byte     `json:"bundle"`
}

// Key is one trusted public key: its name in config.yaml and its PEM.
type Key struct {
	Name string `json:"name"`
	PEM  []byte `json:"pem"`
}

// Identity is one trusted keyless signer (config.yaml trust.identities).
type Identity struct {
	Issuer        string `json:"issuer,omitempty"`
	IssuerRegexp  string `json:"issuer_regexp,omitempty"`
	Subject       string `json:"subject,omitempty"`
	SubjectRegexp string `json:"subject_regexp,omitempty"`
}

// Response is the helper's answer: the signer, or why not.
type Response struct {
	Signer string `json:"signer,omitempty"`
	Error  string `json:"error,omitempty"`
}

// DecodeRequest reads one request of at most MaxRequestBytes, strictly:
// unknown fields, trailing data and a bundle or trusted root over its
// bound are refused.
func DecodeRequest(r io.Reader) (Request, error) {
	var req Request
	if err := decodeOne(r, MaxRequestBytes, &req); err != nil {
		return Request{}, fmt.Errorf("request: %w", err)
	}
	switch {
	case len(req.Bundle) > MaxBundleBytes:
		return Request{}, fmt.Errorf("request: the bundle is over %d bytes", MaxBundleBytes)
	case len(req.TrustedRoot) > MaxTrustedRootBytes:
		return Request{}, fmt.Errorf("request: the trusted root is over %d bytes", MaxTrustedRootBytes)
	case len(req.Keys) > MaxKeys:
		return Request{}, fmt.Errorf("request: over %d keys", MaxKeys)
	}
	return req, nil
}

// decodeResponse reads the helper's one response.
func decodeResponse(b []byte) (Response, error) {
	var resp Response
	if err := decodeOne(bytes.NewReader(b), MaxResponseBytes, &resp); err != nil {
		return Response{}, err
	}
	if (resp.Signer == "") == (resp.Error == "") {
		return Response{}, errors.New("neither a signer nor an error, or both")
	}
	return resp, nil
}

func decodeOne(r io.Reader, max int64, v any) error {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return err
	}
	if int64(len(b)) > max {
		return fmt.Errorf("over %d bytes", max)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data after the object")
	}
	return nil
}
