package keystore

// Notifications is config.toml's [notifications] table: how the dashboard
// tells of a new operation waiting for the caller's approval while another
// screen is shown. Each key is on unless set to false.
//
//	[notifications]
//	toast = true    # a message in the footer of the screen shown
//	bell = true     # the terminal bell
//	desktop = true  # a desktop notification (OSC 9 / OSC 777) where the terminal takes one
type Notifications struct {
	Toast   *bool `toml:"toast,omitempty"`
	Bell    *bool `toml:"bell,omitempty"`
	Desktop *bool `toml:"desktop,omitempty"`
}

// on reports a key's value: unset is on.
func on(b *bool) bool { return b == nil || *b }

// ToastOn reports whether news shows as a toast.
func (n Notifications) ToastOn() bool { return on(n.Toast) }

// BellOn reports whether news rings the terminal bell.
func (n Notifications) BellOn() bool { return on(n.Bell) }

// DesktopOn reports whether news raises a desktop notification.
func (n Notifications) DesktopOn() bool { return on(n.Desktop) }
