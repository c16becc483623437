package schema

import "strconv"

// GuestStatus is how one run of an extension built on a Lola SDK ends:
// lola_run's return value in tier 1, the process exit code in tier 2
// (docs/abi.md, "Statuses"). Zero is success; every other value means no
// plan, and the reason went to the guest's stderr. The numbers are part of
// the ABI and every SDK uses the same ones.
//
// Non-guarantee: a native extension not built on an SDK may exit with
// these numbers for reasons of its own; the host names a status's
// meaning as the SDKs define it, not as a fact about that extension.
type GuestStatus int32

// The statuses of the shared table.
const (
	StatusOK           GuestStatus = 0 // the plan is ready
	StatusBadRequest   GuestStatus = 1 // the request is not a protocol-1 request, or its buffer is not the allocated one
	StatusHandlerError GuestStatus = 2 // the handler returned an error or a builder call was refused
	StatusPlanEncoding GuestStatus = 3 // the plan could not be serialized
	StatusNoHandler    GuestStatus = 4 // no handler was registered before the first run
	StatusHandlerPanic GuestStatus = 5 // the handler panicked
)

var guestStatuses = map[GuestStatus][2]string{
	StatusOK:           {"ok", "the plan is ready"},
	StatusBadRequest:   {"bad-request", "the extension refused the request as malformed"},
	StatusHandlerError: {"handler-error", "the extension's handler returned an error"},
	StatusPlanEncoding: {"plan-encoding", "the extension could not serialize its plan"},
	StatusNoHandler:    {"no-handler", "the extension registered no handler"},
	StatusHandlerPanic: {"handler-panic", "the extension's handler panicked"},
}

// String spells the status, e.g. "handler-error"; a number outside the
// table is "status(N)".
func (s GuestStatus) String() string {
	if n, ok := guestStatuses[s]; ok {
		return n[0]
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// Meaning is the status's meaning in the shared table, "" outside it.
func (s GuestStatus) Meaning() string { return guestStatuses[s][1] }
