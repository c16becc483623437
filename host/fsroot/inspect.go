package fsroot

// Inspection is what a read-only look at the filesystem under a directory
// concluded about how it compares names (Inspect). It creates nothing and
// changes nothing, not even a time stamp: a dry run may rely on it.
type Inspection struct {
	// FS names the filesystem for messages: its entry in the table of
	// known filesystems, or "unknown (f_type 0x…)".
	FS string
	// Conclusive is set when Findings are known to be how this directory
	// compares names. Otherwise Findings are zero and Why says what could
	// not be known without writing.
	Conclusive bool
	Findings   Findings
	Why        string
}
