package httpapi

import (
	"path/filepath"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/engine"
)

// adminBackup is POST /admin/v1/backup with the operator's key:
// {"to": "/absolute/path"} takes a consistent copy of the data directory
// there while the server serves and writes (live.Writer.Backup) and
// answers {"success": true, "to": ..., "position": N}: the log position
// the copy holds. The destination is a path on the server's machine; it
// must not exist (nothing is written over) and its parent must.
const adminBackup = "/admin/v1/backup"

// backupRequest is the body of POST /admin/v1/backup.
type backupRequest struct {
	To string `json:"to"`
}

// backupAnswer is the answer to POST adminBackup.
type backupAnswer struct {
	Success  bool   `json:"success"`
	To       string `json:"to"`
	Position uint64 `json:"position"`
}

// backup answers POST adminBackup.
func (s *Server) backup(ctx *fasthttp.RequestCtx) error {
	p, err := s.eng.Admit(bearer(ctx), access.ScopeAdmin, "")
	if err != nil {
		return err
	}
	b, err := body(ctx, s.opt.MaxBodyBytes)
	if err != nil {
		return err
	}
	var req backupRequest
	if err := decode(b, &req); err != nil {
		return err
	}
	switch {
	case req.To == "":
		return engine.Invalid("to", "is required: the directory to write the backup to, on the server's machine")
	case !filepath.IsAbs(req.To):
		return engine.Invalid("to", "must be an absolute path, got %q", req.To)
	}
	res, err := s.opt.Live.As(actor(ctx, p, "POST "+adminBackup)).Backup(req.To)
	if err != nil {
		return err
	}
	out, err := json.Marshal(backupAnswer{Success: true, To: res.To, Position: res.Position})
	if err != nil {
		return err
	}
	ctx.SetContentType("application/json")
	ctx.SetBody(out)
	return nil
}
