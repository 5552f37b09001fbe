package batch

import pay "github.com/tesouro-treasury/tesouro/batch"

// Service is what the Batch screen asks of the service: what a batch
// calls.
type Service interface{ pay.Service }
