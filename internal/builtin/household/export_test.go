package household

// Money formats an amount as the server's tool results state it, for the
// external tests to check the suite's key answers against.
var Money = money
