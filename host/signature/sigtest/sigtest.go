// Package sigtest makes keyless Sigstore bundles offline, for tests: a
// virtual Sigstore (sigstore-go's test CA: a Fulcio root and intermediate,
// a Rekor log key, a timestamp authority), its trusted root as the JSON
// $LOLA_HOME/trusted_root.json holds, and bundles signed by a short-lived
// certificate for any OIDC subject and issuer.
//
// It is for tests only: nothing it makes is trusted by a real Sigstore
// root, and its keys live in memory for the life of the value.
package sigtest

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"google.golang.org/protobuf/encoding/protojson"
)

// Sigstore is one virtual Sigstore instance.
type Sigstore struct {
	vs *ca.VirtualSigstore
}

// New starts a virtual Sigstore whose CA is valid from five hours ago to
// an hour from now.
func New() (*Sigstore, error) {
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		return nil, err
	}
	return &Sigstore{vs: vs}, nil
}

// TrustedRoot is the instance's trusted root, as trusted_root.json.
func (s *Sigstore) TrustedRoot() ([]byte, error) {
	rekor, err := rawIDs(s.vs.RekorLogs())
	if err != nil {
		return nil, err
	}
	ct, err := rawIDs(s.vs.CTLogs())
	if err != nil {
		return nil, err
	}
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01,
		s.vs.FulcioCertificateAuthorities(), ct, s.vs.TimestampingAuthorities(), rekor)
	if err != nil {
		return nil, err
	}
	return tr.MarshalJSON()
}

// rawIDs copies logs with each ID decoded from the hex the test CA keeps
// in memory to the raw key ID the trusted-root JSON carries (serialized as
// is, a log would be looked up by the hex of its hex and never found).
func rawIDs(logs map[string]*root.TransparencyLog) (map[string]*root.TransparencyLog, error) {
	out := make(map[string]*root.TransparencyLog, len(logs))
	for k, l := range logs {
		id, err := hex.DecodeString(string(l.ID))
		if err != nil {
			return nil, fmt.Errorf("test CA log ID: %w", err)
		}
		c := *l
		c.ID = id
		out[k] = &c
	}
	return out, nil
}

// Sign makes a keyless bundle (v0.1: certificate, Rekor entry with its
// signed promise, RFC 3161 timestamp) for artifact, the certificate
// naming subject (an e-mail SAN) and issuer. The certificate is valid for
// ten minutes from now; the log records the signature five minutes in.
func (s *Sigstore) Sign(subject, issuer string, artifact []byte) ([]byte, error) {
	return s.sign(subject, issuer, artifact, time.Now().Add(5*time.Minute), true)
}

// SignExpired is Sign with the log recording the signature half an hour
// from now — after the ten-minute certificate expired — and no
// timestamp-authority stamp, so the only observed time lies outside the
// certificate. Not an hour: the test CA's log key is valid for an hour
// from its creation, and an entry past that (integrated time rounds to
// the second) fails the log check first, which is not what this tests.
func (s *Sigstore) SignExpired(subject, issuer string, artifact []byte) ([]byte, error) {
	return s.sign(subject, issuer, artifact, time.Now().Add(30*time.Minute), false)
}

func (s *Sigstore) sign(subject, issuer string, artifact []byte, logged time.Time, stamp bool) ([]byte, error) {
	ent, err := s.vs.SignAtTime(subject, issuer, artifact, logged)
	if err != nil {
		return nil, err
	}
	vc, _ := ent.VerificationContent()
	cert := vc.Certificate()
	sc, _ := ent.SignatureContent()
	ms := sc.MessageSignatureContent()
	entries, _ := ent.TlogEntries()
	if len(entries) != 1 {
		return nil, fmt.Errorf("virtual sigstore made %d log entries", len(entries))
	}
	tle, err := s.logEntry(entries[0])
	if err != nil {
		return nil, err
	}
	vm := &protobundle.VerificationMaterial{
		Content: &protobundle.VerificationMaterial_X509CertificateChain{
			X509CertificateChain: &protocommon.X509CertificateChain{
				Certificates: []*protocommon.X509Certificate{{RawBytes: cert.Raw}},
			},
		},
		TlogEntries: []*protorekor.TransparencyLogEntry{tle},
	}
	if stamp {
		tss, _ := ent.Timestamps()
		vm.TimestampVerificationData = &protobundle.TimestampVerificationData{}
		for _, ts := range tss {
			vm.TimestampVerificationData.Rfc3161Timestamps = append(vm.TimestampVerificationData.Rfc3161Timestamps, &protocommon.RFC3161SignedTimestamp{SignedTimestamp: ts})
		}
	}
	pb := &protobundle.Bundle{
		MediaType:            "application/vnd.dev.sigstore.bundle+json;version=0.1",
		VerificationMaterial: vm,
		Content: &protobundle.Bundle_MessageSignature{MessageSignature: &protocommon.MessageSignature{
			MessageDigest: &protocommon.HashOutput{Algorithm: protocommon.HashAlgorithm_SHA2_256, Digest: ms.Digest()},
			Signature:     ms.Signature(),
		}},
	}
	if _, err := bundle.NewBundle(pb); err != nil {
		return nil, fmt.Errorf("virtual sigstore bundle: %w", err)
	}
	return protojson.Marshal(pb)
}

// logEntry completes the test CA's log entry with its kind and the signed
// entry timestamp (the test CA keeps its own private), re-signed with the
// log key over the same payload.
func (s *Sigstore) logEntry(e *tlog.Entry) (*protorekor.TransparencyLogEntry, error) {
	tle := e.TransparencyLogEntry()
	set, err := s.vs.RekorSignPayload(tlog.RekorPayload{
		Body:           base64.StdEncoding.EncodeToString(tle.CanonicalizedBody),
		IntegratedTime: tle.IntegratedTime,
		LogIndex:       tle.LogIndex,
		LogID:          hex.EncodeToString(tle.LogId.KeyId),
	})
	if err != nil {
		return nil, err
	}
	return &protorekor.TransparencyLogEntry{
		LogIndex:          tle.LogIndex,
		LogId:             tle.LogId,
		KindVersion:       &protorekor.KindVersion{Kind: "hashedrekord", Version: "0.0.1"},
		IntegratedTime:    tle.IntegratedTime,
		InclusionPromise:  &protorekor.InclusionPromise{SignedEntryTimestamp: set},
		CanonicalizedBody: tle.CanonicalizedBody,
	}, nil
}
