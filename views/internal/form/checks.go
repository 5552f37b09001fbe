package form

// Plain adapts a validator that only normalises (validate.ABA,
// validate.Email...) to a Check without a hint.
func Plain(fn func(string) (string, error)) Check {
	return func(v string, _ func(string) string) (string, string, error) {
		n, err := fn(v)
		return n, "", err
	}
}

// Hinted adapts a validator that also says what it recognised.
func Hinted(fn func(string) (normalized, hint string, err error)) Check {
	return func(v string, _ func(string) string) (string, string, error) {
		return fn(v)
	}
}
