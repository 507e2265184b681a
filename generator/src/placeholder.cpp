// Retrograde solver lands with the helpmate-generator issue.
namespace deadpos {}
