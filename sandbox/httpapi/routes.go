package httpapi

import (
	"net/http"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// routeAll registers every endpoint.
func (s *Server) routeAll() {
	r := &s.routes
	const (
		get   = http.MethodGet
		post  = http.MethodPost
		del   = http.MethodDelete
		patch = http.MethodPatch
	)
	// Authentication.
	r.handle(post, "/v2/auth/login", authNone, s.login)
	r.handle(post, "/v2/auth/validate-login", authNone, s.validateLogin)
	r.handle(post, "/v2/auth/refresh", authNone, s.refresh)

	// Team administration (§8.8; routes in team.go's order).
	r.handle(get, "/v2/auth/api-keys", authAccess, s.listAPIKeys)
	r.handle(post, "/v2/auth/api-keys", authAccess, s.createAPIKey)
	r.handle(patch, "/v2/auth/api-keys", authAccess, s.allowAPIKey)
	r.handle(del, "/v2/auth/api-keys/{key}", authAccess, s.deleteAPIKey)
	r.handle(post, "/v2/auth/accesses", authAccess, s.inviteAccess)
	r.handle(patch, "/v2/auth/accesses", authAccess, s.updateAccess)
	r.handle(get, "/v2/auth/accesses/{id}", authAccess, s.getAccess)
	r.handle(del, "/v2/auth/accesses/{id}", authAccess, s.revokeAccess)
	r.handle(post, "/v2/auth/accesses/validate/{token}", authNone, s.validateInvitation)
	r.handle(post, "/v2/auth/mfa/totp/create", authAccess, s.createTOTP)
	r.handle(post, "/v2/auth/mfa/totp/validate", authAccess, s.validateTOTP)
	r.handle(post, "/v2/auth/mfa/totp/remove", authAccess, s.removeTOTP)
	r.handle(post, "/v2/auth/mfa/totp/remove/confirm", authAccess, s.confirmRemoveTOTP)
	r.handle(post, "/v2/auth/logout", authAccess, s.logout)
	r.handle(patch, "/v2/auth/change-password", authAccess, s.changePassword)
	r.handle(post, "/v2/auth/forgot-password", authNone, s.forgotPassword)
	r.handle(patch, "/v2/auth/reset-password/{token}", authNone, s.resetPassword)
	r.handle(post, "/v2/auth/create", authNone, s.signUp)
	r.handle(patch, "/v2/auth/validate", authNone, s.validateSignUp)
	r.handle(post, "/v2/auth/verify-existence", authNone, s.verifyExistence)
	r.handle(get, "/v2/sandbox/outbox", authNone, s.outbox)

	// Accesses and accounts.
	r.handle(get, "/v2/auth/accesses", authAccess, s.listAccesses)
	r.handle(get, "/v2/account/access-info", authAccess, s.accessInfo)
	r.handle(get, "/v2/accounts", authAccess, s.listAccounts)
	r.handle(get, "/v2/account/sub-accounts", authAccess, s.listSubAccounts)
	r.handle(post, "/v2/account/sub-accounts", authAccess, s.createSubAccount)
	r.handle(get, "/v2/account/balances", authAccess, s.balances)
	r.handle(get, "/v2/account/metadata", authAccess, s.metadata)

	// Quotes and tickets.
	r.handle(get, "/v2/account/quote/fixed-rate", authAccess, s.quote)
	r.handle(get, "/v2/account/tickets", authAccess, s.listTickets)
	r.handle(post, "/v2/account/tickets", authAccess, s.createTicket)
	r.handle(get, "/v2/account/tickets/{id}", authAccess, s.getTicket)
	r.handle(get, "/v2/account/tickets/{id}/receipt", authAccess, s.ticketReceipt)
	r.handle(post, "/v2/sandbox/tickets/{id}/fund", authAccess, s.fundTicket)
	r.handle(patch, "/v2/account/tickets/{id}/cancel", authAccess, s.cancelTicket)
	r.handle(post, "/v2/sandbox/tickets/{id}/release", authAccess, s.releaseTicket)
	r.handle(post, "/v2/account/payment-session", authAccess, s.createPaymentSession)
	r.handle(post, "/v2/payment-session/{id}/create-ticket", authNone, s.createSessionTicket)
	r.handle(get, "/v2/account/payment-session", authAccess, s.listPaymentSessions)
	r.handle(get, "/v2/payment-session/{id}", authNone, s.getPaymentSession)
	r.handle(get, "/v2/payment-session/{id}/fixed-quote", authNone, s.sessionQuote)
	r.handle(get, "/v2/payment-session/{id}/get-ticket", authNone, s.getSessionTicket)

	// Multi-signature operations.
	r.handle(get, "/v2/account/multi-sig-operations/approver", authAccess, s.approverInbox)
	r.handle(get, "/v2/account/multi-sig-operations/{id}", authAccess, s.getOperation)
	r.handle(post, "/v2/account/multi-sig-operations/{id}/approve", authAccess, s.approveOperation)
	r.handle(post, "/v2/account/multi-sig-operations/{id}/reject", authAccess, s.rejectOperation)

	// Beneficiaries.
	r.handle(get, "/v2/account/beneficiaries/wallets", authAccess, s.listWallets)
	r.handle(post, "/v2/account/beneficiaries/wallets", authAccess, s.createWallet)
	r.handle(get, "/v2/account/beneficiaries/wallets/{id}", authAccess, s.getWallet)
	r.handle(del, "/v2/account/beneficiaries/wallets/{id}", authAccess, s.deleteWallet)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/brl", authAccess, s.listBRL)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/brl", authAccess, s.createBRL)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/brl/{id}", authAccess, s.getBRL)
	r.handle(del, "/v2/account/beneficiaries/bank-accounts/brl/{id}", authAccess, s.deleteBRL)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/usd", authAccess, s.listUSD)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/usd", authAccess, s.createUSD)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/usd/{id}", authAccess, s.getUSD)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/cop", authAccess, s.listCOP)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/cop", authAccess, s.createCOP)

	// Webhooks.
	r.handle(get, "/v2/public-key", authNone, s.publicKey)
	r.handle(post, engine.ReceiverPath, authNone, s.webhookReceiver)
	r.handle(get, "/v2/notifications/webhooks", authAccess, s.listWebhooks)
	r.handle(post, "/v2/notifications/webhooks", authAccess, s.registerWebhook)
	r.handle(del, "/v2/notifications/webhooks/{id}", authAccess, s.deleteWebhook)
	r.handle(get, "/v2/notifications/webhooks/attempts", authAccess, s.listAttempts)
	r.handle(patch, "/v2/notifications/webhooks/attempts", authAccess, s.ackAttempts)
	r.handle(get, "/v2/notifications/webhooks/attempts/{id}", authAccess, s.getAttempt)

	// Compliance, trades and the rest of the live catalogue (§7.4, §8).
	r.handle(post, "/v2/account/ubos", authAccess, s.createUBO)
	r.handle(get, "/v2/account/ubos", authAccess, s.listUBOs)
	r.handle(post, "/v2/kyc/w8ben", authAccess, s.submitW8BEN)
	r.handle(get, "/v2/kyc/w8ben", authAccess, s.listW8BENs)
	r.handle(get, engine.W8BENFormPath+"{id}", authNone, s.w8benDocument)
	r.handle(get, "/v2/account/address/proof-of-address/attempts", authAccess, s.listPoAAttempts)
	r.handle(get, "/v2/account/eod/trades", authAccess, s.listTrades)
	r.handle(get, "/v2/account/bank-accounts/brl/pix-info", authAccess, s.pixInfo)
	r.handle(get, "/v2/account/limits", authAccess, s.limits)
	r.handle(get, "/v2/account/account-info", authAccess, s.accountDetails)
	r.handle(get, "/v2/account/statement", authAccess, s.statement)
	r.handle(get, "/v2/account/sub-accounts/{id}", authAccess, s.getSubAccount)
	r.handle(get, "/v2/account/bank-accounts/brl/static-br-code", authAccess, s.staticBrCode)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/eur", authAccess, s.listEUR)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/eur", authAccess, s.createEUR)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/eur/{id}", authAccess, s.getEUR)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/ars", authAccess, s.listARS)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/ars", authAccess, s.createARS)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/ars/{id}", authAccess, s.getARS)
	r.handle(get, "/v2/notifications/webhooks/events", authAccess, s.listEvents)
	r.handle(get, "/v2/notifications/webhooks/events/{id}", authAccess, s.getEvent)
	r.handle(get, "/v2/notifications/webhooks/{id}", authAccess, s.getWebhook)
	r.handle(patch, "/v2/notifications/webhooks", authAccess, s.updateWebhook)
	r.handle(post, "/v2/documents", authAccess, s.createDocument)
	r.handle(get, "/v2/documents", authAccess, s.listDocuments)
	r.handle(get, "/v2/documents/{id}", authAccess, s.getDocument)
	r.handle(post, "/v2/kyc/new-level-1/api", authAccess, s.submitKYCLevel1)
	r.handle(get, "/v2/kyc/attempts", authAccess, s.listKYCAttempts)
	r.handle(get, "/v2/kyc/attempts/{id}", authAccess, s.getKYCAttempt)
	r.handle(get, "/v2/kyc/w8ben/{id}", authAccess, s.getW8BEN)

	// The rest of the official catalogue (§8.8).
	r.handle(get, "/v2/account/bank-accounts/brl", authAccess, s.ownBRLAccount)
	r.handle(get, "/v2/notifications/email-config", authAccess, s.emailConfig)
	r.handle(http.MethodPut, "/v2/notifications/email-config", authAccess, s.putEmailConfig)
	r.handle(get, "/v2/account/payment-session/preferences", authAccess, s.sessionPreferences)
	r.handle(post, "/v2/account/payment-session/preferences", authAccess, s.saveSessionPreferences)
	r.handle(post, "/v2/kyc/import-token", authAccess, s.importKYCToken)
	r.handle(post, "/v2/kyc/new-level-1/web-sdk", authAccess, s.startWebSDK)
	r.handle(get, WebSDKPath+"{id}", authNone, s.finishWebSDK)
}
