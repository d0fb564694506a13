package household

// Money formats an amount as the server's tool results state it, for the
// external tests to check the suite's key answers against.
var Money = money

// NewSession connects an MCP client to a new server over the fixture, over
// in-memory transports, for the external tests to call the tools as a
// model's client does.
var NewSession = newSession
