package quote

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
)

// Service is what the quote builder asks of the treasury service: the
// quote, the ticket it becomes (through payment.Send, which looks a ticket
// up by its external id before creating one) and its status, the sandbox's simulated
// payment, the beneficiaries the ticket may pay, the account's own service
// wallets (where a markup is paid), who a PIX key pays and the month's
// limits (read before confirming), the fiat rails it may use (a locked one
// is marked before a price is asked), and a parked operation (followed
// until its ticket exists).
type Service interface {
	payment.Service
	Quote(ctx context.Context, req api.QuoteRequest) (*api.Quote, error)
	GetTicket(ctx context.Context, subAccountID, id uuid.UUID) (*api.Ticket, error)
	SandboxFundTicket(ctx context.Context, subAccountID, id uuid.UUID) (*api.Ticket, error)
	ListBRLAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.BRLAccount], error)
	ListWallets(ctx context.Context, f api.WalletFilter) (api.Page[api.Wallet], error)
	ListUSDAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.USDAccount], error)
	ListCOPAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.COPAccount], error)
	ListEURAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.EURAccount], error)
	ListARSAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.ARSAccount], error)
	AccountDetails(ctx context.Context, subAccountID uuid.UUID) (*api.AccountDetails, error)
	GetBRLAccount(ctx context.Context, subAccountID, id uuid.UUID) (*api.BRLAccount, error)
	PixInfo(ctx context.Context, pixKey string) (*api.PixInfo, error)
	Limits(ctx context.Context, subAccountID uuid.UUID) (*api.AccountLimits, error)
	Metadata(ctx context.Context, subAccountID uuid.UUID) (*api.AccountMetadata, error)
	GetOperation(ctx context.Context, id uuid.UUID) (*api.Operation, error)
}
