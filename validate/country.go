package validate

import (
	"fmt"
	"strings"
)

// iso3166 lists every officially assigned ISO 3166-1 code as alpha-2 then
// alpha-3, in alpha-2 order.
const iso3166 = `
AD AND AE ARE AF AFG AG ATG AI AIA AL ALB AM ARM AO AGO AQ ATA AR ARG AS ASM
AT AUT AU AUS AW ABW AX ALA AZ AZE BA BIH BB BRB BD BGD BE BEL BF BFA BG BGR
BH BHR BI BDI BJ BEN BL BLM BM BMU BN BRN BO BOL BQ BES BR BRA BS BHS BT BTN
BV BVT BW BWA BY BLR BZ BLZ CA CAN CC CCK CD COD CF CAF CG COG CH CHE CI CIV
CK COK CL CHL CM CMR CN CHN CO COL CR CRI CU CUB CV CPV CW CUW CX CXR CY CYP
CZ CZE DE DEU DJ DJI DK DNK DM DMA DO DOM DZ DZA EC ECU EE EST EG EGY EH ESH
ER ERI ES ESP ET ETH FI FIN FJ FJI FK FLK FM FSM FO FRO FR FRA GA GAB GB GBR
GD GRD GE GEO GF GUF GG GGY GH GHA GI GIB GL GRL GM GMB GN GIN GP GLP GQ GNQ
GR GRC GS SGS GT GTM GU GUM GW GNB GY GUY HK HKG HM HMD HN HND HR HRV HT HTI
HU HUN ID IDN IE IRL IL ISR IM IMN IN IND IO IOT IQ IRQ IR IRN IS ISL IT ITA
JE JEY JM JAM JO JOR JP JPN KE KEN KG KGZ KH KHM KI KIR KM COM KN KNA KP PRK
KR KOR KW KWT KY CYM KZ KAZ LA LAO LB LBN LC LCA LI LIE LK LKA LR LBR LS LSO
LT LTU LU LUX LV LVA LY LBY MA MAR MC MCO MD MDA ME MNE MF MAF MG MDG MH MHL
MK MKD ML MLI MM MMR MN MNG MO MAC MP MNP MQ MTQ MR MRT MS MSR MT MLT MU MUS
MV MDV MW MWI MX MEX MY MYS MZ MOZ NA NAM NC NCL NE NER NF NFK NG NGA NI NIC
NL NLD NO NOR NP NPL NR NRU NU NIU NZ NZL OM OMN PA PAN PE PER PF PYF PG PNG
PH PHL PK PAK PL POL PM SPM PN PCN PR PRI PS PSE PT PRT PW PLW PY PRY QA QAT
RE REU RO ROU RS SRB RU RUS RW RWA SA SAU SB SLB SC SYC SD SDN SE SWE SG SGP
SH SHN SI SVN SJ SJM SK SVK SL SLE SM SMR SN SEN SO SOM SR SUR SS SSD ST STP
SV SLV SX SXM SY SYR SZ SWZ TC TCA TD TCD TF ATF TG TGO TH THA TJ TJK TK TKL
TL TLS TM TKM TN TUN TO TON TR TUR TT TTO TV TUV TW TWN TZ TZA UA UKR UG UGA
UM UMI US USA UY URY UZ UZB VA VAT VC VCT VE VEN VG VGB VI VIR VN VNM VU VUT
WF WLF WS WSM YE YEM YT MYT ZA ZAF ZM ZMB ZW ZWE
`

var (
	alpha2to3 = map[string]string{}
	alpha3to2 = map[string]string{}
)

func init() {
	f := strings.Fields(iso3166)
	for i := 0; i+1 < len(f); i += 2 {
		alpha2to3[f[i]] = f[i+1]
		alpha3to2[f[i+1]] = f[i]
	}
}

func letters(t string, n int) (string, error) {
	if t == "" {
		return "", fmt.Errorf("required: type the %d-letter ISO 3166 country code", n)
	}
	u := strings.ToUpper(t)
	for i := 0; i < len(u); i++ {
		if u[i] < 'A' || u[i] > 'Z' {
			return "", fmt.Errorf("a country code has %d letters A-Z: type e.g. %s", n, map[int]string{2: "BR", 3: "BRA"}[n])
		}
	}
	return u, nil
}

// CountryAlpha3 checks an ISO 3166-1 alpha-3 country code ("BRA") against
// the official list and returns it upper-cased. An alpha-2 code gets a hint
// with its alpha-3 form.
func CountryAlpha3(s string) (string, error) {
	u, err := letters(strings.TrimSpace(s), 3)
	if err != nil {
		return "", err
	}
	if a3, ok := alpha2to3[u]; ok && len(u) == 2 {
		return "", fmt.Errorf("%s is a 2-letter code: type the 3-letter code %s", u, a3)
	}
	if len(u) != 3 {
		return "", fmt.Errorf("has %d letters: type the 3-letter ISO 3166 country code, e.g. BRA", len(u))
	}
	if _, ok := alpha3to2[u]; !ok {
		return "", fmt.Errorf("%s is not an ISO 3166 country code: type e.g. BRA, USA, DEU", u)
	}
	return u, nil
}

// CountryAlpha2 checks an ISO 3166-1 alpha-2 country code ("BR") against
// the official list and returns it upper-cased.
func CountryAlpha2(s string) (string, error) {
	u, err := letters(strings.TrimSpace(s), 2)
	if err != nil {
		return "", err
	}
	if a2, ok := alpha3to2[u]; ok && len(u) == 3 {
		return "", fmt.Errorf("%s is a 3-letter code: type the 2-letter code %s", u, a2)
	}
	if len(u) != 2 {
		return "", fmt.Errorf("has %d letters: type the 2-letter ISO 3166 country code, e.g. BR", len(u))
	}
	if _, ok := alpha2to3[u]; !ok {
		return "", fmt.Errorf("%s is not an ISO 3166 country code: type e.g. BR, US, DE", u)
	}
	return u, nil
}

// Alpha3To2 converts an alpha-3 code to its alpha-2 form.
func Alpha3To2(a3 string) (string, error) {
	u, err := CountryAlpha3(a3)
	if err != nil {
		return "", err
	}
	return alpha3to2[u], nil
}

// Alpha2To3 converts an alpha-2 code to its alpha-3 form.
func Alpha2To3(a2 string) (string, error) {
	u, err := CountryAlpha2(a2)
	if err != nil {
		return "", err
	}
	return alpha2to3[u], nil
}
