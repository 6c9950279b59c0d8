// Runtime configuration for a run without the API in front (vite dev). The API serves its own /config.js built from
// DEMO_BOOKING_URL and GOOGLE_CLIENT_ID; anything left out takes the defaults in src/config.ts.
window.TOPLINE_CONFIG = window.TOPLINE_CONFIG || {};
