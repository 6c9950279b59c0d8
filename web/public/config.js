// Default runtime configuration for a local run. A deployment serves its own /config.js with real values.
window.TOPLINE_CONFIG = {
  demoBookingUrl: 'https://calendar.example.com/topline/demo',
  contactUrl: 'mailto:hello@topline.example',
  googleClientId: '',
  marketingSiteJa: '',
  marketingSiteEn: '',
  links: {
    knowledge: 'https://docs.topline.example/knowledge',
    help: 'https://docs.topline.example/tutorial',
    feedback: 'https://feedback.topline.example',
    database: 'https://db.topline.example',
    blog: 'https://blog.topline.example',
    social: 'https://x.com/topline',
  },
};
