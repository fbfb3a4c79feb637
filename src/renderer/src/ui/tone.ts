/**
 * The tones a state is drawn in, as `tone-<name>` classes of styles/global.css (with `.pill` for a
 * small label): each feature maps its own states to one, beside the state's words.
 */
export type Tone = 'ok' | 'busy' | 'bad' | 'muted'
