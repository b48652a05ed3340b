package live

import (
	"errors"
	"time"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// BackupResult is what Backup wrote.
type BackupResult struct {
	// To is the backup's directory.
	To string `json:"to"`
	// Position is the log position the backup holds: every change
	// acknowledged up to it, none after.
	Position uint64 `json:"position"`
	// Took is how long the checkpoint took.
	Took time.Duration `json:"-"`
}

// Backup takes a consistent copy of the data directory into dest (a
// directory that must not exist, whose parent must) while the server
// serves and writes (store.Backup), and logs it as an admin action.
// Serving dest (aisle serve --data DEST) serves the state at the
// returned position.
func (w *Writer) Backup(dest string) (BackupResult, error) {
	start := time.Now()
	pos, err := w.st.Backup(dest)
	if errors.Is(err, store.ErrBackupExists) || errors.Is(err, store.ErrBackupNoParent) {
		return BackupResult{}, engine.Invalid("to", "%v", err)
	}
	if err != nil {
		return BackupResult{}, AsError(err)
	}
	res := BackupResult{To: dest, Position: pos, Took: time.Since(start)}
	w.log.Info("backup taken", "to", dest, "position", pos, "by", w.by.Name, "took", res.Took.Round(time.Microsecond))
	return res, nil
}
