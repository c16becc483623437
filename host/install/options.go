package install

import (
	"github.com/lola-pm/lola/host/extension"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// Options is one install or uninstall.
type Options struct {
	// Home is $LOLA_HOME (absolute): the module store, extensions, the
	// audit log and installed.yml live there.
	Home string
	// Config is the user's configuration (path-grant narrowing); nil means
	// config.Default().
	Config *config.Config

	Module    string       // the module's name in the store
	Assistant string       // the target extension's name: claude-code, cursor, ...
	Scope     schema.Scope // "" means project
	// Project is the project directory for scope project ("" means the
	// current directory). Ignored for scope user.
	Project string
	// UserHome is the root for scope user; "" means os.UserHomeDir().
	UserHome string

	// PreInstall and PostInstall are the CLI's --pre-install and
	// --post-install scripts (module-relative); they win over lola.yaml.
	PreInstall, PostInstall string

	// CatalogPreInstall and CatalogPostInstall are a marketplace entry's
	// hooks (lola install @MARKET/MODULE): scripts in the module, run only
	// when neither the CLI nor the module's lola.yaml names one for that
	// point (today's Lola's precedence: CLI, lola.yaml, marketplace).
	CatalogPreInstall, CatalogPostInstall string

	// Version and Ref are recorded in installed.yml (today's Lola's
	// "version" and "ref" keys): the catalog version and the git ref the
	// module was installed at; "" records none.
	Version, Ref string

	// AppendContext is the CLI's --append-context paths (install only;
	// see applyAppendContext): the module's instructions are replaced by a
	// reference to each, and installed.yml records them as given.
	AppendContext []string

	// DryRun resolves and checks everything and changes nothing.
	DryRun bool
	// Force (install only) lets the plan change or remove existing files
	// lola does not own (conflict.unowned); each is named in one audited
	// override record and owned by lola from then on.
	Force bool
	// ReplaceSymlinks (install only) is the user's consent to replace the
	// symbolic links found on paths the plan writes (see symlinks.go).
	ReplaceSymlinks bool
	// ConfirmSymlinks, when set and ReplaceSymlinks is not, is asked (an
	// interactive prompt) whether the links found may be replaced.
	ConfirmSymlinks func([]Symlink) bool
	// FS is the path-equality relation for the root (pipeline.Options.FS);
	// "" means pathrule.Auto.
	FS string

	// Exe is the lola executable the tier-1 shim re-executes; "" means the
	// running executable.
	Exe string
	// Trust is the signature trust policy a linked (dev) native target is
	// checked against at launch; an added one is held to its pin.
	Trust extension.TrustPolicy
	// ExtraEnv is appended to the target extension's environment (tests).
	ExtraEnv []string
	// Timeout is the target extension's outer deadline; 0 means the
	// pipeline's default for its tier.
	Timeout time.Duration
	// HookDeadline overrides hook.DefaultDeadline (300 s) when positive.
	HookDeadline time.Duration
	// Environ is the environment hooks inherit; nil means os.Environ().
	Environ []string
	// Remote performs fetch and clone intents; nil fails a plan holding one.
	Remote *remote.Client

	// Correlation, when set, is the audit correlation id this install's
	// records carry, so that one command running several installs (lola
	// update, lola sync) is one correlation; zero means a fresh one.
	Correlation audit.Correlation

	// Warn receives non-fatal problems (a failed post-install hook, an
	// audit event that could not be written); nil discards them.
	Warn func(string)
	// Progress receives one line as each long step starts; nil discards.
	Progress func(string)
}

func (o *Options) warn(s string) {
	if o.Warn != nil {
		o.Warn(s)
	}
}

func (o *Options) progress(s string) {
	if o.Progress != nil {
		o.Progress(s)
	}
}
