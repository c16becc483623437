package remote

import (
	"crypto/x509"
	"errors"
)

// Options configures a Client. Policy and Limits are required.
type Options struct {
	Policy      *Policy        // destination policy and redirect depth
	Limits      Limits         // byte and time bounds
	Resolver    Resolver       // nil: SystemResolver
	Credentials *Credentials   // nil: no credentials are attached
	RootCAs     *x509.CertPool // nil: the system roots; tests give a test CA
	Cache       *Cache         // nil: fetches are not cached
	// KnownHosts is the known_hosts file ssh host keys are verified
	// against. Empty: every ssh clone is refused (remote.transport-auth),
	// since there is nothing to verify a host key against.
	KnownHosts string
}

// Client performs fetch and clone intents under one policy. It is safe for
// concurrent use.
type Client struct {
	o Options
}

// New validates o and returns a client.
func New(o Options) (*Client, error) {
	if o.Policy == nil {
		return nil, errors.New("remote: a Policy is required")
	}
	if !o.Limits.valid() {
		return nil, errors.New("remote: Limits must be built with NewLimits or DefaultLimits")
	}
	if o.Resolver == nil {
		o.Resolver = SystemResolver{}
	}
	return &Client{o: o}, nil
}
