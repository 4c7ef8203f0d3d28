// A generated 4,000-tool catalog of the kind public tool sets are made of: one camelCase verb-noun
// name per tool (getPhilosophy, sendCommunityNewsletter, getLegalCaseInfo), a one-sentence
// description and a few parameters, plus queries phrased as people ask (verbs the names do not use,
// quoted titles, ids and names as arguments). Deterministic from a seed; written here from our own
// word lists (no outside data set), to check that ranking never falls below plain BM25 on it.
import type { Tool } from '@modelcontextprotocol/client';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Nouns by domain: each is one tool family (a noun, maybe of two words). */
const DOMAINS: Record<string, string[]> = {
  education: ['philosophy', 'mathematics', 'course', 'lecture', 'exam', 'student grade', 'curriculum', 'scholarship', 'tutor', 'classroom', 'homework', 'syllabus', 'thesis', 'enrollment', 'library loan', 'school calendar'],
  legal: ['legal case', 'contract', 'patent', 'trademark', 'court hearing', 'lawyer', 'legal document', 'lawsuit', 'copyright', 'will', 'power of attorney', 'compliance report', 'regulation', 'privacy policy', 'legal advice', 'arbitration'],
  books: ['book', 'author', 'book review', 'reading list', 'publisher', 'ebook', 'audiobook', 'poem', 'novel', 'book chapter', 'bestseller', 'literary award', 'bookstore', 'isbn record', 'quote', 'manuscript'],
  travel: ['flight', 'hotel', 'car rental', 'train ticket', 'travel itinerary', 'visa', 'passport', 'cruise', 'tour', 'airport', 'travel insurance', 'boarding pass', 'luggage', 'vacation package', 'travel advisory', 'currency rate'],
  health: ['doctor appointment', 'prescription', 'symptom', 'medical record', 'vaccine', 'blood pressure', 'diet plan', 'workout', 'sleep data', 'calorie count', 'heart rate', 'pharmacy', 'health insurance', 'allergy', 'therapy session', 'step count'],
  finance: ['bank account', 'transaction', 'loan', 'credit score', 'stock price', 'tax return', 'budget', 'expense', 'invoice', 'payment', 'mortgage', 'retirement plan', 'crypto wallet', 'exchange rate', 'dividend', 'insurance claim'],
  weather: ['weather forecast', 'air quality', 'pollen count', 'uv index', 'storm warning', 'sunrise time', 'tide table', 'humidity', 'temperature', 'rainfall', 'snow report', 'wind speed', 'earthquake', 'wildfire', 'flood alert', 'climate data'],
  food: ['recipe', 'restaurant', 'grocery list', 'meal plan', 'nutrition fact', 'food delivery', 'wine pairing', 'menu', 'cooking class', 'table reservation', 'coffee order', 'bakery', 'ingredient', 'food allergy', 'cocktail', 'food truck'],
  music: ['song', 'playlist', 'album', 'concert', 'artist', 'lyrics', 'music chart', 'radio station', 'podcast', 'podcast episode', 'music genre', 'band', 'guitar chord', 'music festival', 'record label', 'music video'],
  movies: ['movie', 'tv show', 'actor', 'movie review', 'cinema showtime', 'streaming service', 'movie trailer', 'box office', 'film festival', 'documentary', 'tv episode', 'movie ticket', 'director', 'screenplay', 'anime', 'watchlist'],
  sports: ['football match', 'basketball score', 'tennis ranking', 'player stat', 'team roster', 'sports league', 'olympic medal', 'race result', 'golf course', 'gym membership', 'marathon', 'chess game', 'cricket score', 'baseball schedule', 'ski resort', 'fitness class'],
  home: ['thermostat', 'light', 'door lock', 'security camera', 'vacuum robot', 'smart plug', 'garage door', 'sprinkler', 'home alarm', 'energy usage', 'water heater', 'window blind', 'smoke detector', 'doorbell', 'air purifier', 'washing machine'],
  work: ['meeting', 'task', 'project', 'timesheet', 'employee', 'job posting', 'job application', 'performance review', 'vacation request', 'team', 'payroll', 'office room', 'expense report', 'onboarding', 'org chart', 'company policy'],
  community: ['community newsletter', 'community event', 'volunteer', 'donation', 'charity', 'neighborhood watch', 'local news', 'town hall', 'petition', 'community garden', 'club membership', 'fundraiser', 'forum post', 'survey', 'poll', 'meetup'],
  science: ['chemical element', 'planet', 'star', 'dna sequence', 'experiment', 'research paper', 'lab sample', 'telescope', 'fossil', 'species', 'protein', 'satellite', 'asteroid', 'galaxy', 'gene', 'mineral'],
  tech: ['server', 'database', 'api key', 'domain name', 'ssl certificate', 'backup', 'virtual machine', 'password', 'software license', 'bug report', 'code review', 'deployment', 'website', 'email account', 'firewall rule', 'dns record'],
  shopping: ['product', 'order', 'shopping cart', 'coupon', 'product review', 'wishlist', 'gift card', 'price alert', 'return request', 'shipping label', 'store location', 'loyalty point', 'flash sale', 'package', 'subscription box', 'warranty'],
  transport: ['bus route', 'subway map', 'taxi ride', 'parking spot', 'traffic report', 'bike share', 'fuel price', 'electric charger', 'ferry schedule', 'toll', 'driving direction', 'road closure', 'car maintenance', 'vehicle registration', 'driver license', 'carpool'],
  social: ['social post', 'friend request', 'profile', 'follower', 'hashtag', 'story', 'direct message', 'group chat', 'photo album', 'birthday reminder', 'dating match', 'comment', 'like', 'trending topic', 'influencer', 'blocked user'],
  art: ['painting', 'museum', 'art gallery', 'sculpture', 'art auction', 'photograph', 'drawing', 'exhibition', 'art supply', 'artist portfolio', 'craft project', 'tattoo design', 'calligraphy', 'pottery class', 'color palette', 'font'],
  history: ['historical event', 'ancient civilization', 'war', 'historical figure', 'monument', 'archaeological site', 'dynasty', 'revolution', 'empire', 'treaty', 'historical map', 'castle', 'mythology', 'family tree', 'coin collection', 'artifact'],
  language: ['translation', 'dictionary word', 'synonym', 'grammar check', 'language lesson', 'pronunciation', 'idiom', 'spelling', 'word of the day', 'sign language', 'phrasebook', 'etymology', 'rhyme', 'acronym', 'slang', 'dialect'],
  pets: ['pet', 'dog breed', 'cat food', 'vet appointment', 'pet adoption', 'pet sitter', 'aquarium', 'bird species', 'pet insurance', 'dog walker', 'pet vaccination', 'pet grooming', 'horse', 'reptile', 'pet toy', 'lost pet'],
  games: ['video game', 'board game', 'game score', 'puzzle', 'trivia question', 'crossword', 'sudoku', 'game tournament', 'esports team', 'game server', 'achievement', 'leaderboard', 'card game', 'riddle', 'lottery result', 'game review'],
  environment: ['recycling center', 'carbon footprint', 'solar panel', 'national park', 'hiking trail', 'camping site', 'endangered species', 'tree planting', 'water quality', 'noise level', 'plastic waste', 'wind farm', 'compost', 'beach condition', 'bird migration', 'ocean current'],
};

type Verb = { verb: string; suffix: string; desc: string; params: (n: string, id: string) => Record<string, { type: string; description: string }>; asks: string[] };
const p = (description: string, type = 'string') => ({ type, description });
/** Each verb with its description and how people ask for it (verbs a name often does not use). */
const VERBS: Verb[] = [
  { verb: 'get', suffix: '', desc: 'Retrieve information about {n}', params: (n) => ({ topic: p(`The ${n} to look up`) }), asks: ['Get the {n} information.', 'Retrieve the {n}.', 'Tell me about {n}.', 'What can you tell me about {n}?', 'I want to learn about {n}.', 'Give me some information on {n}.', 'Tell me about the {n} subject.'] },
  { verb: 'track', suffix: 'Status', desc: 'Track the status of a {n} by its id', params: (n, id) => ({ [id]: p(`The id of the ${n}`) }), asks: ['Track {n} {arg}.', 'Where is my {n} {arg} at?', 'What is the status of {n} {arg}?', 'Follow the progress of {n} {arg}.'] },
  { verb: 'search', suffix: '', desc: 'Search for {n} matching keywords', params: () => ({ keywords: p('Words to search for'), limit: p('The most results to return', 'integer') }), asks: ['Search {n} for {arg}.', 'Find {n} about {arg}.', 'Look for {n} related to {arg}.', 'Are there any {n} on {arg}?'] },
  { verb: 'create', suffix: '', desc: 'Create a new {n} with the given details', params: () => ({ name: p('The name of the new item'), details: p('Details to store') }), asks: ['Create a {n} named {arg}.', 'Make a new {n} called {arg}.', 'Set up a {n} named {arg}.', 'Add a {n} {arg}.'] },
  { verb: 'update', suffix: '', desc: 'Update an existing {n}', params: (n, id) => ({ [id]: p(`The id of the ${n}`), changes: p('The fields to change') }), asks: ['Update the {n} {arg}.', 'Change the {n} {arg}.', 'Edit my {n} {arg}.', 'Modify {n} {arg} please.'] },
  { verb: 'delete', suffix: '', desc: 'Delete a {n} permanently', params: (n, id) => ({ [id]: p(`The id of the ${n}`) }), asks: ['Delete {n} {arg}.', 'Remove the {n} {arg}.', 'Get rid of {n} {arg}.', 'Erase my {n} {arg}.'] },
  { verb: 'send', suffix: '', desc: 'Send a {n} to recipients', params: () => ({ recipient: p('Who receives it'), subject: p('The subject line'), message: p('The message body') }), asks: ['Send the {n} to {arg}.', 'Share the {n} with {arg}.', 'Forward the {n} to {arg}.', 'Deliver a {n} to {arg}.'] },
  { verb: 'list', suffix: 's', desc: 'List all {n} entries', params: () => ({ limit: p('The most entries to return', 'integer') }), asks: ['List my {n} entries.', 'Show all my {n} entries.', 'What {n} entries do I have?', 'Give me every {n}.'] },
  { verb: 'analyze', suffix: '', desc: 'Analyze {n} data and return insights', params: () => ({ data: p('The data to analyze'), period: p('The time period') }), asks: ['Analyze the {n} of {arg}.', 'Give me insights on {n} {arg}.', 'Study the {n} trends for {arg}.', 'Examine {n} for {arg}.'] },
  { verb: 'recommend', suffix: '', desc: 'Recommend {n} based on preferences', params: () => ({ preferences: p('What the user likes'), location: p('Where the user is') }), asks: ['Recommend a {n} for {arg}.', 'Suggest a {n} for {arg}.', 'Which {n} would you advise for {arg}?', 'What {n} should I pick for {arg}?'] },
];

/** Argument values: quoted titles, ids, names, places — often with words that name other tools. */
const TITLE_WORDS = ['Curious', 'Case', 'Talking', 'Animals', 'Silent', 'Garden', 'Last', 'Train', 'Winter', 'Book', 'Song', 'Night', 'River', 'Court', 'Star', 'Market', 'Lost', 'City', 'Island', 'Letter', 'Game', 'Recipe', 'Storm', 'Museum', 'Planet', 'Hotel', 'Order'];
const NAMES = ['Ana', 'Marco', 'Priya', 'Jonas', 'Mei', 'Tom', 'Fatima', 'Lars', 'Sofia', 'Kenji'];
const PLACES = ['Paris', 'Berlin', 'Tokyo', 'Lisbon', 'Toronto', 'Nairobi', 'Oslo', 'Austin', 'Seoul', 'Lima'];

const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');

export type VerbNounSet = { tools: Tool[]; gold: Array<{ query: string; expected: string[] }> };

/** `count` tools (at most 4,000) and about one query for every `per` tools. */
export function verbNounCatalog(count = 4000, seed = 11, per = 8): VerbNounSet {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const arg = (): string => {
    const k = r();
    if (k < 0.3) {
      const n = 3 + Math.floor(r() * 4);
      return `"The ${Array.from({ length: n }, () => pick(TITLE_WORDS)).join(' ')}"`;
    }
    if (k < 0.5) return `${pick(['A', 'X', 'K'])}-${10000 + Math.floor(r() * 89999)}`;
    if (k < 0.75) return pick(NAMES);
    return pick(PLACES);
  };
  const tools: Tool[] = [];
  const gold: VerbNounSet['gold'] = [];
  const entries = Object.values(DOMAINS).flat();
  outer: for (const v of VERBS) {
    for (const noun of entries) {
      if (tools.length >= count) break outer;
      const words = noun.split(' ');
      const name = camel([v.verb, ...words]) + v.suffix;
      const id = camel([...words, 'id']);
      tools.push({ name, description: `${v.desc.replace('{n}', noun)}.`, inputSchema: { type: 'object', properties: v.params(noun, id) as never, required: [] } });
      if (r() < 1 / per) gold.push({ query: pick(v.asks).replace('{n}', noun).replace('{arg}', arg()), expected: [name] });
    }
  }
  return { tools, gold };
}
