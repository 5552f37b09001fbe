package httpapi

import (
	"net/http"
	"strings"

	"github.com/tesouro-treasury/tesouro/validate"
)

// GET /v2/account/bank-accounts/brl/pix-info?pixKey=&decodePixKey=: who a
// PIX key pays (the sandbox's directory: engine.PixHolder).
func (s *Server) pixInfo(c *call) error {
	raw := c.query.Get("pixKey")
	if strings.TrimSpace(raw) == "" {
		return badRequest(codeMissingField, "pixKey: required (a CPF, CNPJ, +55 phone, e-mail or random key)")
	}
	decode := true
	if c.query.Has("decodePixKey") {
		var err error
		if decode, err = c.queryBool("decodePixKey"); err != nil {
			return err
		}
	}
	kind, key, err := validate.PixKey(raw)
	if err != nil {
		return fieldErr("pixKey", err)
	}
	h, err := s.eng.PixHolder(kind, key)
	if err != nil {
		return err
	}
	info := PixInfo{Name: h.Name, TaxID: h.TaxID, BankName: h.BankName}
	if !decode {
		// Without decoding, the directory only says the key exists and where.
		info.Name, info.TaxID = "", ""
	}
	return c.reply(http.StatusOK, info)
}

// PixInfo is who a PIX key pays (§7.4).
type PixInfo struct {
	Name     string `json:"name"`
	TaxID    string `json:"taxId"`
	BankName string `json:"bankName"`
}
