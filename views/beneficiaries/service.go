package beneficiaries

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the Beneficiaries screen asks of the service.
type Service interface {
	ListWallets(ctx context.Context, q api.WalletFilter) (api.Page[api.Wallet], error)
	ListBRLAccounts(ctx context.Context, q api.BeneficiaryFilter) (api.Page[api.BRLAccount], error)
	ListUSDAccounts(ctx context.Context, q api.BeneficiaryFilter) (api.Page[api.USDAccount], error)
	ListCOPAccounts(ctx context.Context, q api.BeneficiaryFilter) (api.Page[api.COPAccount], error)
	CreateWallet(ctx context.Context, account uuid.UUID, req api.CreateWalletRequest) (uuid.UUID, error)
	CreateBRLAccount(ctx context.Context, account uuid.UUID, req api.CreateBRLAccountRequest) (uuid.UUID, error)
	CreateUSDAccount(ctx context.Context, account uuid.UUID, req api.CreateUSDAccountRequest) (uuid.UUID, error)
	CreateCOPAccount(ctx context.Context, account uuid.UUID, req api.CreateCOPAccountRequest) (uuid.UUID, error)
	ListEURAccounts(ctx context.Context, q api.BeneficiaryFilter) (api.Page[api.EURAccount], error)
	ListARSAccounts(ctx context.Context, q api.BeneficiaryFilter) (api.Page[api.ARSAccount], error)
	CreateEURAccount(ctx context.Context, account uuid.UUID, req api.CreateEURAccountRequest) (uuid.UUID, error)
	CreateARSAccount(ctx context.Context, account uuid.UUID, req api.CreateARSAccountRequest) (uuid.UUID, error)
	PixInfo(ctx context.Context, pixKey string) (*api.PixInfo, error)
	DeleteWallet(ctx context.Context, account, id uuid.UUID) error
	DeleteBRLAccount(ctx context.Context, account, id uuid.UUID) error
}
