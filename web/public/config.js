// Stands in for the API's /config.js (api/src/http/webConfig.ts), which the API and Vite's dev server answer in its
// place: without it the app shows no outside link and no landing content.
window.TOPLINE_CONFIG = window.TOPLINE_CONFIG || {};
