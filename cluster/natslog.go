package cluster

import (
	"fmt"
	"log/slog"
)

// natsLogger is a NATS server's log on slog: warnings as Warn, errors
// and fatal errors as Error (the process goes on: a node's failure is
// the cluster's to survive); notices (a line per route connected or
// closed, dozens at a start), debug and trace lines as Debug. Aisle logs
// what an operator acts on itself: the server started, a lease taken or
// lost.
type natsLogger struct{ log *slog.Logger }

func (l natsLogger) Noticef(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l natsLogger) Warnf(format string, v ...any)   { l.log.Warn(fmt.Sprintf(format, v...)) }
func (l natsLogger) Fatalf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l natsLogger) Errorf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l natsLogger) Debugf(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l natsLogger) Tracef(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
