package report

import (
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
)

// SummaryJudged is the judged block of a Summary: the counts of the cases
// graded by a judge model, and each judge model with its measured
// agreement with people.
type SummaryJudged struct {
	grade.Counts
	// Judges are the judge models whose readings graded the judged cases,
	// sorted; empty when no judge was asked.
	Judges []SummaryJudge `json:"judges"`
}

// SummaryJudge is one judge model of the judged cases and its measured
// agreement with people.
type SummaryJudge struct {
	Model string `json:"model"`
	// Agreement is nil (null) when the judge's agreement is not measured:
	// the run has no agreement.json, or it measured other judges, or its
	// kappa is undefined.
	Agreement *JudgeAgreement `json:"agreement"`
}

// JudgeAgreement is a judge's measured agreement with people, as a run's
// agreement.json keeps it (mcpeval judge-agreement --save).
type JudgeAgreement struct {
	// Kappa is Cohen's kappa; KappaLow and KappaHigh its 95% interval,
	// absent when it has none (one reader read every attempt alike).
	Kappa     float64  `json:"kappa"`
	KappaLow  *float64 `json:"kappa_low,omitempty"`
	KappaHigh *float64 `json:"kappa_high,omitempty"`
	// N is the number of attempts both the judge and a person read.
	N int `json:"n"`
	// Measured is the day it was measured, UTC (2006-01-02).
	Measured string `json:"measured"`
	// Runs are the ids of the runs whose reviews it was measured over.
	Runs []string `json:"runs,omitempty"`
}

// summaryJudged builds the judged block of res with ag's agreement; nil
// when res has no judged case.
func summaryJudged(res *grade.Result, ag *agreement.Saved) *SummaryJudged {
	if res.Judged == nil {
		return nil
	}
	j := &SummaryJudged{Counts: *res.Judged, Judges: []SummaryJudge{}}
	for _, m := range JudgeModels(res) {
		sj := SummaryJudge{Model: m}
		if ag.Measures(m) {
			sj.Agreement = &JudgeAgreement{Kappa: *ag.Kappa, KappaLow: ag.KappaLow, KappaHigh: ag.KappaHigh, N: ag.N, Measured: ag.Measured, Runs: ag.Runs}
		}
		j.Judges = append(j.Judges, sj)
	}
	return j
}
