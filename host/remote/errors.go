package remote

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// fetchError maps a transport error onto the vocabulary: a violation stays
// itself; the operation's own deadline is remote.bound; a certificate or
// handshake failure is remote.transport-auth. Anything else becomes a plain
// error whose text carries no URL (a URL could hold what the server echoed).
func (c *Client) fetchError(ctx context.Context, err error, ref rejection.IntentRef) error {
	var v *rejection.Violation
	if errors.As(err, &v) {
		return withRef(v, ref)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return rejection.New(schema.RuleRemoteBound, "the operation exceeded its time bound", ref)
	}
	if isTransportAuthError(err) {
		return rejection.New(schema.RuleRemoteTransportAuth, "TLS verification failed: "+tlsReason(err), ref)
	}
	if errors.Is(err, context.Canceled) {
		return context.Canceled
	}
	return fmt.Errorf("fetch: intent #%d: transfer failed", ref.Index)
}

func isTransportAuthError(err error) bool {
	var (
		hostErr  x509.HostnameError
		authErr  x509.UnknownAuthorityError
		certErr  x509.CertificateInvalidError
		verifErr *tls.CertificateVerificationError
		alertErr tls.AlertError
		recErr   tls.RecordHeaderError
	)
	return errors.As(err, &hostErr) || errors.As(err, &authErr) || errors.As(err, &certErr) ||
		errors.As(err, &verifErr) || errors.As(err, &alertErr) || errors.As(err, &recErr)
}

func tlsReason(err error) string {
	var (
		hostErr x509.HostnameError
		authErr x509.UnknownAuthorityError
		certErr x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &hostErr):
		return "the certificate is not valid for the URL's host name"
	case errors.As(err, &authErr):
		return "the certificate is not signed by a trusted authority"
	case errors.As(err, &certErr):
		return "the certificate is invalid"
	}
	return "the handshake failed"
}

// withRef names ref in a violation that was built without one.
func withRef(err error, ref rejection.IntentRef) error {
	var v *rejection.Violation
	if errors.As(err, &v) && len(v.Intents) == 0 {
		cp := *v
		cp.Intents = []rejection.IntentRef{ref}
		return &cp
	}
	return err
}
