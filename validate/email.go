package validate

import (
	"errors"
	"fmt"
	"strings"
)

// maxEmail is the longest address SMTP carries (RFC 5321 path limit).
const maxEmail = 254

// MaxEmail is the longest e-mail address Email accepts, in characters.
const MaxEmail = maxEmail

// Email checks an e-mail address: one "@", a local part of at most 64
// printable characters, a domain of dot-separated labels with a top-level
// label of letters. The domain is lower-cased (it is case-insensitive); the
// local part is kept as typed.
func Email(s string) (string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return "", errors.New("required: type an e-mail address such as name@example.com")
	}
	if len(t) > maxEmail {
		return "", fmt.Errorf("is %d characters long, an e-mail address has at most %d: check the address", len(t), maxEmail)
	}
	local, domain, ok := strings.Cut(t, "@")
	if !ok {
		return "", errors.New("has no @: type the whole address, e.g. name@example.com")
	}
	if strings.Contains(domain, "@") {
		return "", errors.New("has more than one @: type a single address, e.g. name@example.com")
	}
	if local == "" {
		return "", errors.New("nothing before the @: type the whole address, e.g. name@example.com")
	}
	if len(local) > 64 {
		return "", errors.New("the part before the @ is longer than 64 characters: check the address")
	}
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return "", errors.New("misplaced dot before the @: dots cannot start, end or repeat there")
	}
	for _, r := range local {
		if !emailLocalRune(r) {
			return "", fmt.Errorf("%q is not allowed in an e-mail address: remove it", r)
		}
	}
	if err := emailDomain(domain); err != nil {
		return "", err
	}
	return local + "@" + strings.ToLower(domain), nil
}

func emailLocalRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune(".!#$%&'*+/=?^_`{|}~-", r)
}

func emailDomain(domain string) error {
	if domain == "" {
		return errors.New("nothing after the @: type the domain, e.g. name@example.com")
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return fmt.Errorf("domain %q has no dot: type the full domain, e.g. example.com", domain)
	}
	for _, l := range labels {
		if l == "" {
			return fmt.Errorf("domain %q has an empty part: remove the extra dot", domain)
		}
		if len(l) > 63 {
			return fmt.Errorf("domain %q has a part longer than 63 characters: check the address", domain)
		}
		if l[0] == '-' || l[len(l)-1] == '-' {
			return fmt.Errorf("domain %q has a part starting or ending with a dash: check the address", domain)
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return fmt.Errorf("%q is not allowed in the domain: use letters, digits, dashes and dots", r)
			}
		}
	}
	tld := labels[len(labels)-1]
	for _, r := range tld {
		if r >= '0' && r <= '9' {
			return fmt.Errorf("domain %q ends with digits: type a domain name, not an IP address", domain)
		}
	}
	if len(tld) < 2 {
		return fmt.Errorf("domain %q ends with a one-letter part: check the address", domain)
	}
	return nil
}
