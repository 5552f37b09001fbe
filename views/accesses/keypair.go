package accesses

import (
	"github.com/tesouro-treasury/tesouro/api"
)

// keyTypes are the key pairs an API key may sign with, the default first.
var keyTypes = []string{api.KeyEd25519, api.KeyECDSA, api.KeyRSA}

// rsaBits is the size of the RSA keys made here.
const rsaBits = 3072
