// A generated catalog of the shape where a large, generated API catalog is searched with long,
// paraphrased requests: ~4,000 tools of 37 domains whose verbs repeat across every domain (search,
// get details, list, create, update, cancel, compare…), several made-up vendors per domain offering the
// same action on the same object with different filters, descriptions of one to four sentences with
// boilerplate, and requests of 15–40 words that paraphrase one tool's description the way a chat model
// does: an opener, the situation, the need in other verbs and nouns, the filters it cares about, an
// argument or two and a closing.
//
// Written here from our own word lists (no outside data set), deterministic from a seed. Two styles
// with disjoint templates: `tune` (seed 7) is the set ranking may be tuned on; `heldout` (seed 29)
// shares the domains but words its descriptions and requests differently and is only measured.
//
//   node --import tsx bench/longRequestCatalog.ts [--style tune|heldout] [--write DIR]
//     writes DIR/long-<style>-catalog.json and DIR/long-<style>-gold.json for `mws eval`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    // mulberry32: better spread over small ranges than an LCG's low bits.
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * A domain: what people call the situation (`topic`), made-up vendors, its objects as
 * "singular/plural: other words for it", and the attributes its tools filter or report by.
 */
type Domain = { topic: string[]; vendors: string[]; objects: string[]; attrs: string[] };
const DOMAINS: Record<string, Domain> = {
  travel: {
    topic: ['an upcoming trip', 'a family vacation', 'a business trip'],
    vendors: ['skyroute', 'tripnest', 'farewise'],
    objects: [
      'flight/flights: plane ticket, air travel',
      'hotel/hotels: place to stay, lodging',
      'car rental/car rentals: rental car, hire car',
      'train ticket/train tickets: rail fare, rail journey',
      'cruise/cruises: boat trip, sea voyage',
      'travel itinerary/travel itineraries: trip plan, schedule of the trip',
      'airport lounge/airport lounges: waiting lounge',
      'visa requirement/visa requirements: entry rules, entry permit',
    ],
    attrs: [
      'departure date',
      'destination city',
      'price range',
      'airline',
      'number of travelers',
      'cabin class',
      'star rating',
      'cancellation policy',
      'loyalty points',
      'layover duration',
    ],
  },
  realestate: {
    topic: ['a house hunt', 'moving to a new apartment', 'a property investment'],
    vendors: ['homescout', 'estately', 'brickbase'],
    objects: [
      'property listing/property listings: home for sale, house on the market',
      'rental apartment/rental apartments: flat to rent, apartment to lease',
      'open house/open houses: viewing, house tour',
      'mortgage quote/mortgage quotes: home loan offer',
      'neighborhood/neighborhoods: area, district',
      'property valuation/property valuations: home value estimate, appraisal',
      'real estate agent/real estate agents: realtor, broker',
      'lease agreement/lease agreements: tenancy contract, rental contract',
    ],
    attrs: [
      'zip code',
      'number of bedrooms',
      'square footage',
      'asking price',
      'school district',
      'pet policy',
      'year built',
      'property tax',
      'commute time',
      'parking',
    ],
  },
  finance: {
    topic: ['my personal finances', 'our company accounts', 'saving for retirement'],
    vendors: ['ledgerly', 'coinvault', 'finlytic'],
    objects: [
      'bank transaction/bank transactions: payment record, account activity',
      'stock quote/stock quotes: share price, ticker price',
      'invoice/invoices: bill, billing statement',
      'budget/budgets: spending plan',
      'credit card/credit cards: card account',
      'loan application/loan applications: borrowing request, credit application',
      'tax document/tax documents: tax form, tax paperwork',
      'currency exchange rate/currency exchange rates: forex rate, conversion rate',
    ],
    attrs: [
      'account number',
      'date range',
      'amount',
      'currency',
      'merchant',
      'category',
      'interest rate',
      'due date',
      'ticker symbol',
      'fiscal year',
    ],
  },
  health: {
    topic: ['my health', 'taking care of an elderly parent', 'a new fitness routine'],
    vendors: ['medibridge', 'vitalis', 'carepoint'],
    objects: [
      'doctor appointment/doctor appointments: medical visit, checkup',
      'prescription/prescriptions: medication order, refill',
      'lab result/lab results: blood test, test report',
      'symptom/symptoms: health complaint, ailment',
      'vaccination record/vaccination records: immunization history, shot record',
      'health insurance claim/health insurance claims: medical claim, reimbursement request',
      'pharmacy/pharmacies: drugstore, chemist',
      'clinic/clinics: medical center, practice',
    ],
    attrs: [
      'patient id',
      'date of birth',
      'specialty',
      'insurance provider',
      'dosage',
      'location',
      'availability',
      'diagnosis code',
      'language spoken',
      'visit reason',
    ],
  },
  fitness: {
    topic: ['getting in shape', 'training for a marathon', 'my gym routine'],
    vendors: ['fitforge', 'pulsetrack', 'strideup'],
    objects: [
      'workout plan/workout plans: training program, exercise routine',
      'running route/running routes: jogging path, run course',
      'gym class/gym classes: fitness session, group class',
      'calorie log/calorie logs: food diary, intake record',
      'heart rate reading/heart rate readings: pulse measurement',
      'personal trainer/personal trainers: coach, fitness instructor',
      'step count/step counts: daily steps, walking total',
      'body measurement/body measurements: weight record, body stats',
    ],
    attrs: [
      'duration',
      'intensity level',
      'muscle group',
      'distance',
      'calories burned',
      'start time',
      'goal',
      'equipment',
      'difficulty',
      'weekly frequency',
    ],
  },
  food: {
    topic: ['cooking dinner tonight', 'a dinner party', 'eating healthier'],
    vendors: ['tastebud', 'forkful', 'pantrypal'],
    objects: [
      'recipe/recipes: dish, cooking instructions',
      'restaurant/restaurants: place to eat, eatery',
      'table reservation/table reservations: dinner booking, restaurant booking',
      'grocery list/grocery lists: shopping list',
      'meal plan/meal plans: weekly menu',
      'food delivery order/food delivery orders: takeout order',
      'wine pairing/wine pairings: wine match',
      'nutrition fact/nutrition facts: nutritional information, macros',
    ],
    attrs: [
      'cuisine',
      'dietary restriction',
      'cooking time',
      'ingredients',
      'price level',
      'party size',
      'rating',
      'delivery address',
      'opening hours',
      'serving size',
    ],
  },
  music: {
    topic: ['a road trip playlist', 'learning guitar', 'a party this weekend'],
    vendors: ['tunewave', 'soundnest', 'chordify'],
    objects: [
      'song/songs: track, tune',
      'playlist/playlists: mix, song list',
      'album/albums: record, release',
      'artist/artists: musician, band',
      'concert/concerts: live show, gig',
      'lyric/lyrics: song words, verse',
      'music chart/music charts: top list, ranking of hits',
      'podcast episode/podcast episodes: show episode, audio episode',
    ],
    attrs: ['genre', 'release year', 'mood', 'tempo', 'popularity', 'duration', 'language', 'record label', 'venue', 'country'],
  },
  movies: {
    topic: ['a movie night', 'a film club', 'catching up on shows'],
    vendors: ['reelhub', 'cinescope', 'streamly'],
    objects: [
      'movie/movies: film, picture',
      'tv series/tv series: show, series',
      'movie showtime/movie showtimes: screening time, cinema schedule',
      'actor/actors: cast member, performer',
      'movie review/movie reviews: film critique, rating from critics',
      'streaming availability/streaming availabilities: where to watch, streaming service',
      'trailer/trailers: preview clip, teaser',
      'cinema ticket/cinema tickets: movie ticket, seat at the theater',
    ],
    attrs: [
      'title',
      'genre',
      'release year',
      'director',
      'age rating',
      'runtime',
      'language',
      'theater location',
      'critic score',
      'streaming platform',
    ],
  },
  books: {
    topic: ['my reading list', 'a book club', 'a school assignment'],
    vendors: ['pagewise', 'shelfie', 'inkwell'],
    objects: [
      'book/books: novel, title',
      'author/authors: writer, novelist',
      'library loan/library loans: borrowed book, checkout',
      'book review/book reviews: reader opinion',
      'ebook/ebooks: digital book, kindle edition',
      'audiobook/audiobooks: narrated book, audio edition',
      'book quote/book quotes: passage, citation',
      'bestseller list/bestseller lists: top sellers, best-selling books',
    ],
    attrs: [
      'isbn',
      'genre',
      'publication year',
      'publisher',
      'page count',
      'reading level',
      'language',
      'format',
      'series name',
      'average rating',
    ],
  },
  education: {
    topic: ['my studies', 'homeschooling my kids', 'a university application'],
    vendors: ['learnly', 'campusly', 'edvance'],
    objects: [
      'online course/online courses: class, training',
      'exam/exams: test, assessment',
      'student grade/student grades: mark, score',
      'scholarship/scholarships: grant, funding award',
      'tutor/tutors: teacher, instructor',
      'class schedule/class schedules: timetable, course calendar',
      'assignment/assignments: homework, coursework',
      'university program/university programs: degree, study program',
    ],
    attrs: [
      'subject',
      'grade level',
      'semester',
      'student id',
      'deadline',
      'credits',
      'tuition fee',
      'instructor name',
      'campus',
      'prerequisites',
    ],
  },
  jobs: {
    topic: ['my job search', 'hiring for our startup', 'a career change'],
    vendors: ['hirewell', 'talentloop', 'careerpath'],
    objects: [
      'job posting/job postings: vacancy, opening, position',
      'job application/job applications: application for a role',
      'resume/resumes: cv, curriculum vitae',
      'interview/interviews: job interview, hiring conversation',
      'salary estimate/salary estimates: pay range, compensation figure',
      'candidate/candidates: applicant, job seeker',
      'company profile/company profiles: employer page, employer details',
      'job offer/job offers: offer letter',
    ],
    attrs: [
      'job title',
      'location',
      'salary range',
      'experience level',
      'employment type',
      'remote option',
      'industry',
      'skills',
      'company size',
      'posting date',
    ],
  },
  shopping: {
    topic: ['a birthday present', 'redecorating the living room', 'holiday shopping'],
    vendors: ['cartwise', 'shopster', 'dealhound'],
    objects: [
      'product/products: item, goods',
      'shopping cart/shopping carts: basket, cart',
      'order/orders: purchase',
      'coupon/coupons: discount code, promo code',
      'product review/product reviews: customer rating, buyer feedback',
      'wishlist/wishlists: wish list, saved items',
      'return request/return requests: refund request, product return',
      'price alert/price alerts: price drop notice',
    ],
    attrs: [
      'brand',
      'price',
      'category',
      'color',
      'size',
      'shipping speed',
      'seller',
      'customer rating',
      'order number',
      'stock availability',
    ],
  },
  weather: {
    topic: ['planning an outdoor event', 'a hike this weekend', 'farming season'],
    vendors: ['skycast', 'weatherly', 'climatrix'],
    objects: [
      'weather forecast/weather forecasts: outlook, prediction',
      'current condition/current conditions: weather right now, conditions outside',
      'severe weather alert/severe weather alerts: storm warning, weather warning',
      'air quality index/air quality indexes: pollution level, smog reading',
      'pollen count/pollen counts: allergy level',
      'historical weather record/historical weather records: past weather, climate history',
      'uv index/uv indexes: sun strength, sunburn risk',
      'tide table/tide tables: high tide and low tide times',
    ],
    attrs: [
      'city',
      'latitude and longitude',
      'date',
      'hourly breakdown',
      'temperature unit',
      'wind speed',
      'precipitation chance',
      'humidity',
      'time zone',
      'forecast days',
    ],
  },
  sports: {
    topic: ['following the league this season', 'my fantasy team', 'a match tonight'],
    vendors: ['scoreboard', 'playmaker', 'sportsnap'],
    objects: [
      'match result/match results: final score, game outcome',
      'team roster/team rosters: squad, lineup',
      'player statistic/player statistics: player stats, performance numbers',
      'league standing/league standings: table, rankings',
      'fixture/fixtures: upcoming game, match schedule',
      'betting odd/betting odds: odds, wager line',
      'sports news article/sports news articles: sports story, headline',
      'stadium/stadiums: arena, venue',
    ],
    attrs: ['team name', 'league', 'season', 'player name', 'match date', 'position', 'competition', 'home or away', 'sport', 'country'],
  },
  gaming: {
    topic: ['a gaming night with friends', 'my gaming channel', 'a tournament'],
    vendors: ['questlog', 'pixelpeak', 'gamevault'],
    objects: [
      'video game/video games: game, title',
      'game achievement/game achievements: trophy, unlock',
      'player profile/player profiles: gamer account, gamer profile',
      'leaderboard/leaderboards: high score table, ranking',
      'game server/game servers: multiplayer server, lobby',
      'game deal/game deals: game sale, discount on games',
      'esports match/esports matches: competitive match',
      'game mod/game mods: modification, addon',
    ],
    attrs: ['platform', 'genre', 'player count', 'release date', 'region', 'game mode', 'username', 'price', 'skill rating', 'publisher'],
  },
  social: {
    topic: ['our brand account', 'my online presence', 'a marketing campaign'],
    vendors: ['postwave', 'chirply', 'feedly'],
    objects: [
      'social media post/social media posts: update, status',
      'comment/comments: reply, remark',
      'follower/followers: audience member, fan',
      'hashtag/hashtags: tag, trending topic',
      'direct message/direct messages: private message, dm',
      'profile/profiles: account page, bio',
      'scheduled post/scheduled posts: queued update, planned post',
      'engagement metric/engagement metrics: likes and shares, reach numbers',
    ],
    attrs: [
      'username',
      'platform',
      'post date',
      'keyword',
      'likes count',
      'audience location',
      'media type',
      'time range',
      'language',
      'visibility',
    ],
  },
  email: {
    topic: ['clearing my inbox', 'a newsletter launch', 'team communication'],
    vendors: ['mailjet', 'inboxly', 'postbox'],
    objects: [
      'email message/email messages: mail, email',
      'mailing list/mailing lists: subscriber list, distribution list',
      'email template/email templates: message layout, mail template',
      'newsletter campaign/newsletter campaigns: email blast, bulk mailing',
      'contact/contacts: address book entry, person',
      'email attachment/email attachments: attached file',
      'spam report/spam reports: junk mail flag',
      'auto reply rule/auto reply rules: out of office message, automatic response',
    ],
    attrs: [
      'sender',
      'recipient',
      'subject line',
      'date received',
      'folder',
      'label',
      'open rate',
      'send time',
      'attachment type',
      'priority',
    ],
  },
  calendar: {
    topic: ['a busy week', 'coordinating a team offsite', 'my daily schedule'],
    vendors: ['datewise', 'slotter', 'agendo'],
    objects: [
      'calendar event/calendar events: meeting, appointment',
      'meeting room/meeting rooms: conference room, room booking',
      'reminder/reminders: alert, nudge',
      'availability slot/availability slots: free time, open slot',
      'recurring meeting/recurring meetings: weekly sync, repeating event',
      'event invitation/event invitations: invite, rsvp',
      'holiday/holidays: public holiday, day off',
      'time zone conversion/time zone conversions: time difference',
    ],
    attrs: [
      'start time',
      'end time',
      'attendees',
      'location',
      'time zone',
      'recurrence',
      'organizer',
      'duration',
      'calendar name',
      'agenda',
    ],
  },
  devops: {
    topic: ['our production deployment', 'a failing build', 'the cloud infrastructure'],
    vendors: ['shipyard', 'kubekit', 'pipelane'],
    objects: [
      'deployment/deployments: release, rollout',
      'build pipeline/build pipelines: ci pipeline, build job',
      'server instance/server instances: virtual machine, vm',
      'container/containers: docker container, pod',
      'log entry/log entries: log line, application log',
      'alert rule/alert rules: monitoring alert, alarm',
      'dns record/dns records: domain record, hostname entry',
      'ssl certificate/ssl certificates: tls certificate, https certificate',
    ],
    attrs: [
      'environment',
      'region',
      'service name',
      'commit hash',
      'status',
      'severity',
      'cpu usage',
      'memory limit',
      'timestamp',
      'cluster',
    ],
  },
  code: {
    topic: ['an open source project', 'a code review', 'our repository'],
    vendors: ['gitnest', 'codeport', 'repohub'],
    objects: [
      'repository/repositories: repo, codebase',
      'pull request/pull requests: merge request, code change',
      'issue/issues: bug report, ticket',
      'branch/branches: code branch, feature branch',
      'commit/commits: change set, revision',
      'code snippet/code snippets: piece of code, gist',
      'release note/release notes: changelog, version notes',
      'code review comment/code review comments: review feedback',
    ],
    attrs: [
      'repository name',
      'author',
      'label',
      'programming language',
      'state',
      'branch name',
      'date range',
      'file path',
      'milestone',
      'reviewer',
    ],
  },
  security: {
    topic: ['a security audit', 'hardening our systems', 'a suspicious login'],
    vendors: ['shieldly', 'vaultguard', 'threatlens'],
    objects: [
      'vulnerability/vulnerabilities: security flaw, cve',
      'password/passwords: credential, login secret',
      'login attempt/login attempts: sign-in event, authentication event',
      'firewall rule/firewall rules: network rule, access rule',
      'security scan/security scans: vulnerability scan, audit run',
      'api key/api keys: access token, secret key',
      'user permission/user permissions: access right, role',
      'malware report/malware reports: virus report, threat analysis',
    ],
    attrs: [
      'ip address',
      'severity',
      'user id',
      'date range',
      'hostname',
      'port',
      'risk score',
      'status',
      'policy name',
      'country of origin',
    ],
  },
  ecommerce: {
    topic: ['running my online store', "our shop's holiday sale", 'a new product line'],
    vendors: ['storefront', 'shoplane', 'merchantly'],
    objects: [
      'inventory item/inventory items: stock item, product in stock',
      'customer order/customer orders: sale, purchase order',
      'shipping label/shipping labels: postage label',
      'store discount/store discounts: markdown, sale price',
      'customer account/customer accounts: shopper profile, buyer account',
      'product catalog/product catalogs: listing of products, store catalog',
      'sales report/sales reports: revenue summary, sales figures',
      'shipment/shipments: parcel, package',
    ],
    attrs: [
      'sku',
      'warehouse',
      'quantity',
      'order status',
      'carrier',
      'tracking number',
      'customer email',
      'date range',
      'sales channel',
      'tax rate',
    ],
  },
  transport: {
    topic: ['my daily commute', 'getting around the city', 'a night out downtown'],
    vendors: ['transitly', 'ridego', 'metromap'],
    objects: [
      'bus schedule/bus schedules: bus timetable, bus times',
      'ride share/ride shares: taxi, cab ride',
      'parking spot/parking spots: parking space, place to park',
      'bike rental/bike rentals: city bike, bicycle hire',
      'traffic condition/traffic conditions: congestion, road delays',
      'transit route/transit routes: directions by public transport, way to get there',
      'fuel price/fuel prices: gas price, petrol cost',
      'electric vehicle charger/electric vehicle chargers: ev charging station, charging point',
    ],
    attrs: [
      'origin',
      'destination',
      'departure time',
      'line number',
      'fare',
      'accessibility',
      'distance',
      'vehicle type',
      'arrival time',
      'stop name',
    ],
  },
  pets: {
    topic: ['my new puppy', 'an older cat', 'adopting a pet'],
    vendors: ['pawprint', 'petpal', 'furever'],
    objects: [
      'pet adoption listing/pet adoption listings: adoptable animal, rescue pet',
      'vet appointment/vet appointments: veterinary visit, vet checkup',
      'pet food/pet foods: kibble, animal food',
      'dog walker/dog walkers: pet sitter, walking service',
      'pet vaccination/pet vaccinations: pet shot, animal immunization',
      'breed information/breed information: breed profile, breed traits',
      'pet insurance plan/pet insurance plans: animal coverage',
      'lost pet report/lost pet reports: missing animal notice',
    ],
    attrs: ['species', 'breed', 'age', 'size', 'location', 'temperament', 'weight', 'price', 'vaccination status', 'owner name'],
  },
  home: {
    topic: ['fixing things around the house', 'a kitchen remodel', 'smart home setup'],
    vendors: ['handyhub', 'homely', 'nestwork'],
    objects: [
      'smart light/smart lights: bulb, lamp',
      'thermostat/thermostats: heating control, temperature setting',
      'home repair request/home repair requests: maintenance job, fix-it request',
      'contractor/contractors: handyman, tradesperson',
      'security camera/security cameras: doorbell camera, surveillance camera',
      'energy usage reading/energy usage readings: power consumption, electricity usage',
      'appliance/appliances: household device, washing machine',
      'cleaning service/cleaning services: housekeeper, maid service',
    ],
    attrs: ['room', 'brightness', 'temperature', 'device id', 'schedule', 'budget', 'service area', 'rating', 'power mode', 'warranty'],
  },
  news: {
    topic: ['keeping up with current events', 'a research report', 'a morning briefing'],
    vendors: ['headliner', 'newsdesk', 'briefly'],
    objects: [
      'news article/news articles: story, report',
      'headline/headlines: top story, breaking news',
      'news source/news sources: publication, outlet',
      'press release/press releases: announcement, company statement',
      'opinion piece/opinion pieces: editorial, column',
      'news topic/news topics: subject, beat',
      'fact check/fact checks: claim verification',
      'news summary/news summaries: digest, roundup',
    ],
    attrs: [
      'keyword',
      'publication date',
      'language',
      'country',
      'category',
      'source name',
      'author',
      'sort order',
      'sentiment',
      'word count',
    ],
  },
  legal: {
    topic: ['a dispute with my landlord', 'starting a small business', 'a contract negotiation'],
    vendors: ['lexicon', 'lawbridge', 'clauseco'],
    objects: [
      'contract/contracts: agreement, legal document',
      'court case/court cases: lawsuit, legal case',
      'trademark/trademarks: brand registration, registered mark',
      'patent/patents: invention filing',
      'lawyer/lawyers: attorney, legal counsel',
      'regulation/regulations: law, rule',
      'legal form/legal forms: court form, filing template',
      'business registration/business registrations: company filing, incorporation',
    ],
    attrs: [
      'jurisdiction',
      'case number',
      'filing date',
      'party name',
      'practice area',
      'status',
      'hourly rate',
      'court',
      'clause type',
      'expiry date',
    ],
  },
  insurance: {
    topic: ['insuring our new car', 'after a storm damaged the roof', 'comparing coverage'],
    vendors: ['coverwise', 'policypal', 'assura'],
    objects: [
      'insurance quote/insurance quotes: premium estimate, price for coverage',
      'insurance policy/insurance policies: coverage, plan',
      'insurance claim/insurance claims: damage claim, payout request',
      'insurance agent/insurance agents: broker, adviser',
      'deductible option/deductible options: excess amount',
      'policy document/policy documents: policy papers, certificate of insurance',
      'premium payment/premium payments: insurance bill, installment',
      'coverage comparison/coverage comparisons: plan comparison',
    ],
    attrs: [
      'policy number',
      'coverage type',
      'premium',
      'deductible',
      'vehicle',
      'zip code',
      'claim amount',
      'incident date',
      'renewal date',
      'beneficiary',
    ],
  },
  energy: {
    topic: ['lowering our electricity bill', 'installing solar panels', 'a greener home'],
    vendors: ['gridwise', 'voltly', 'sunshare'],
    objects: [
      'electricity tariff/electricity tariffs: power plan, energy rate',
      'solar panel estimate/solar panel estimates: solar quote, rooftop solar estimate',
      'meter reading/meter readings: usage reading, meter value',
      'carbon footprint/carbon footprints: emissions estimate, co2 footprint',
      'utility bill/utility bills: energy bill, power bill',
      'power outage/power outages: blackout, outage',
      'energy supplier/energy suppliers: utility company, power provider',
      'battery storage system/battery storage systems: home battery',
    ],
    attrs: [
      'zip code',
      'monthly usage',
      'roof size',
      'time of use',
      'contract length',
      'provider',
      'kilowatt hours',
      'billing period',
      'green energy share',
      'meter id',
    ],
  },
  art: {
    topic: ['decorating my studio', 'visiting galleries', 'an art history class'],
    vendors: ['canvasly', 'galleria', 'artscope'],
    objects: [
      'artwork/artworks: painting, piece of art',
      'museum exhibition/museum exhibitions: exhibit, show',
      'artist biography/artist biographies: painter bio, artist background',
      'art auction/art auctions: auction lot, art sale',
      'photograph/photographs: photo, picture',
      'color palette/color palettes: color scheme',
      'art supply/art supplies: paint, brushes',
      'museum/museums: gallery, art museum',
    ],
    attrs: ['artist name', 'period', 'medium', 'style', 'museum name', 'city', 'estimated price', 'dimensions', 'opening date', 'theme'],
  },
  science: {
    topic: ['my thesis research', 'a science fair project', 'a literature review'],
    vendors: ['labnote', 'sciencely', 'paperbase'],
    objects: [
      'research paper/research papers: article, study, publication',
      'dataset/datasets: data set, data collection',
      'chemical compound/chemical compounds: molecule, substance',
      'gene/genes: genetic sequence',
      'citation/citations: reference, bibliography entry',
      'clinical trial/clinical trials: medical study',
      'experiment protocol/experiment protocols: lab procedure, method',
      'journal/journals: periodical, academic journal',
    ],
    attrs: [
      'doi',
      'author',
      'publication year',
      'field of study',
      'keyword',
      'impact factor',
      'molecular formula',
      'species',
      'sample size',
      'open access',
    ],
  },
  space: {
    topic: ['stargazing tonight', 'a school project on planets', 'following a rocket launch'],
    vendors: ['orbitly', 'starmap', 'cosmosdb'],
    objects: [
      'satellite position/satellite positions: satellite location, orbit track',
      'rocket launch/rocket launches: launch, liftoff',
      'astronomy picture/astronomy pictures: space photo, image of the sky',
      'planet/planets: world, celestial body',
      'asteroid/asteroids: near earth object, space rock',
      'star chart/star charts: sky map, constellation map',
      'mars rover photo/mars rover photos: rover image',
      'eclipse/eclipses: solar eclipse, lunar eclipse',
    ],
    attrs: [
      'date',
      'observer location',
      'mission name',
      'launch site',
      'distance from earth',
      'magnitude',
      'camera',
      'orbit type',
      'visibility',
      'agency',
    ],
  },
  government: {
    topic: ['renewing my documents', 'a question about public services', 'moving to another city'],
    vendors: ['civicly', 'govdesk', 'publicus'],
    objects: [
      'passport application/passport applications: passport renewal, travel document request',
      'public record/public records: government record, official record',
      'tax filing/tax filings: tax return, return submission',
      'voter registration/voter registrations: registration to vote',
      'permit/permits: license, authorization',
      'census statistic/census statistics: population data, demographic figures',
      'government office/government offices: agency office, service center',
      'benefit program/benefit programs: public assistance, social benefit',
    ],
    attrs: [
      'citizen id',
      'state',
      'application status',
      'processing time',
      'fee',
      'county',
      'eligibility',
      'appointment date',
      'document type',
      'year',
    ],
  },
  language: {
    topic: ['learning spanish', 'writing an essay', 'talking to clients abroad'],
    vendors: ['linguo', 'wordsmith', 'babelize'],
    objects: [
      'translation/translations: translated text, rendering in another language',
      'dictionary definition/dictionary definitions: word meaning',
      'synonym/synonyms: similar word, alternative word',
      'grammar correction/grammar corrections: spelling fix, proofreading',
      'pronunciation guide/pronunciation guides: how to say a word',
      'language lesson/language lessons: vocabulary exercise',
      'text summary/text summaries: summarization, short version',
      'detected language/detected languages: language identification',
    ],
    attrs: [
      'source language',
      'target language',
      'text',
      'formality',
      'dialect',
      'word',
      'proficiency level',
      'max length',
      'tone',
      'part of speech',
    ],
  },
  crm: {
    topic: ['our sales pipeline', 'a customer support backlog', 'onboarding a big client'],
    vendors: ['dealflow', 'clientele', 'supportly'],
    objects: [
      'sales lead/sales leads: prospect, potential customer',
      'deal/deals: opportunity, sale in progress',
      'support ticket/support tickets: help request, case',
      'customer note/customer notes: account note',
      'sales forecast/sales forecasts: revenue projection',
      'customer survey/customer surveys: feedback form, questionnaire',
      'account manager/account managers: sales rep, representative',
      'knowledge base article/knowledge base articles: help article, faq entry',
    ],
    attrs: [
      'company name',
      'deal stage',
      'owner',
      'priority',
      'close date',
      'deal value',
      'region',
      'ticket status',
      'customer tier',
      'satisfaction score',
    ],
  },
  events: {
    topic: ['a wedding next spring', 'our annual conference', 'a weekend in town'],
    vendors: ['eventide', 'ticketeer', 'gatherly'],
    objects: [
      'event ticket/event tickets: admission, entry pass',
      'local event/local events: happening, thing to do',
      'venue booking/venue bookings: hall rental, event space',
      'guest list/guest lists: attendee list, invitees',
      'festival/festivals: fair, celebration',
      'event vendor/event vendors: caterer, decorator',
      'conference session/conference sessions: talk, workshop',
      'seating chart/seating charts: table plan',
    ],
    attrs: [
      'event date',
      'city',
      'capacity',
      'ticket price',
      'category',
      'organizer',
      'dress code',
      'catering',
      'age limit',
      'seat section',
    ],
  },
  automotive: {
    topic: ['buying a used car', 'my car making a strange noise', 'a road trip in our car'],
    vendors: ['autolane', 'carfax', 'motorly'],
    objects: [
      'vehicle listing/vehicle listings: car for sale, used car',
      'vehicle history report/vehicle history reports: car history, accident record',
      'car service appointment/car service appointments: maintenance visit, oil change booking',
      'car part/car parts: spare part, auto part',
      'vehicle recall/vehicle recalls: safety recall',
      'dealership/dealerships: car dealer, showroom',
      'fuel economy rating/fuel economy ratings: mileage figure, mpg',
      'vin decode/vin decodes: vehicle identification lookup',
    ],
    attrs: ['make', 'model', 'year', 'mileage', 'vin', 'price', 'body type', 'transmission', 'fuel type', 'dealer location'],
  },
};

/** Ordinary words an LLM paraphrase swaps (request side only): the tools never use the right-hand words. */
const SWAPS: Record<string, string[]> = {
  price: ['cost', 'how much it is'],
  date: ['day'],
  city: ['town'],
  location: ['place', 'area'],
  rating: ['score', 'grade'],
  number: ['count'],
  status: ['state', 'progress'],
  duration: ['length', 'how long'],
  time: ['hour'],
  range: ['window', 'bracket'],
  type: ['kind'],
  level: ['tier'],
  name: ['title'],
  id: ['identifier', 'reference'],
  size: ['dimensions'],
  year: ['vintage'],
  language: ['tongue'],
  category: ['kind', 'group'],
  amount: ['sum', 'total'],
  schedule: ['timetable'],
};

type ActionSide = { verb: string; name: string[]; desc: string[]; ask: string[] };
/**
 * The actions every domain's tools share. `name`: how tool names spell it; `desc`: description
 * templates ({o} one object, {os} the plural, {a} the tool's attributes); `ask`: how a request phrases it
 * (other verbs, mostly).
 */
type Style = {
  seed: number;
  actions: ActionSide[];
  boiler: string[];
  openers: string[];
  situations: string[];
  filters: string[];
  closings: string[];
  argLeads: string[];
};

const TUNE: Style = {
  seed: 7,
  actions: [
    {
      verb: 'search',
      name: ['search', 'find'],
      desc: ['Search for {os} by {a}.', 'Find {os} that match {a}.'],
      ask: ['find me some {os}', 'look for {os}', 'hunt down a few {os}', 'see which {os} are out there'],
    },
    {
      verb: 'get',
      name: ['get', 'fetch'],
      desc: ['Get detailed information about a specific {o}, including its {a}.', 'Retrieve the full details of one {o}: {a}.'],
      ask: ['pull up everything about a particular {o}', 'see the full info on one {o}', 'know more about a certain {o}'],
    },
    {
      verb: 'list',
      name: ['list'],
      desc: ['List all {os} available, with their {a}.', 'Return a paginated list of {os} and their {a}.'],
      ask: ['see every {o} there is', 'get the whole list of {os}', 'browse all the {os}'],
    },
    {
      verb: 'create',
      name: ['create', 'add'],
      desc: ['Create a new {o} with the given {a}.', 'Add a {o} record, setting its {a}.'],
      ask: ['set up a new {o}', 'make a fresh {o}', 'register another {o}'],
    },
    {
      verb: 'update',
      name: ['update', 'edit'],
      desc: ['Update the {a} of an existing {o}.', 'Modify an existing {o}, changing its {a}.'],
      ask: ['change a {o} I already have', 'adjust an existing {o}', 'tweak one of my {os}'],
    },
    {
      verb: 'delete',
      name: ['delete', 'remove'],
      desc: ['Delete a {o} permanently, by its {a}.', 'Remove a {o}; it cannot be undone.'],
      ask: ['get rid of a {o}', 'wipe out one of the {os}', 'erase a {o} for good'],
    },
    {
      verb: 'compare',
      name: ['compare'],
      desc: ['Compare two or more {os} side by side on {a}.'],
      ask: ['weigh a couple of {os} against each other', 'put several {os} next to each other', 'see how some {os} stack up'],
    },
    {
      verb: 'recommend',
      name: ['recommend', 'suggest'],
      desc: ['Recommend {os} based on the user preferences: {a}.', 'Suggest suitable {os} given {a}.'],
      ask: ['get a suggestion for a good {o}', 'hear which {o} you would advise', 'pick the right {o} for me'],
    },
    {
      verb: 'track',
      name: ['track', 'status'],
      desc: ['Track the status of a {o} over time and report changes in {a}.', 'Check the current status of a {o}, with {a}.'],
      ask: ['follow what is happening with a {o}', 'keep an eye on a {o}', 'know where things stand with my {o}'],
    },
    {
      verb: 'stats',
      name: ['stats', 'analytics'],
      desc: ['Get statistics and trends for {os}, grouped by {a}.', 'Aggregate {os} into analytics by {a}.'],
      ask: ['crunch the numbers on {os}', 'see trends and totals across {os}', 'get an overview in figures of the {os}'],
    },
    {
      verb: 'export',
      name: ['export', 'download'],
      desc: ['Export {os} to a CSV or PDF file, with columns for {a}.'],
      ask: ['save the {os} into a spreadsheet', 'dump the {os} to a file', 'get a downloadable copy of the {os}'],
    },
    {
      verb: 'subscribe',
      name: ['subscribe', 'watch'],
      desc: ['Subscribe to notifications when a {o} changes its {a}.', 'Create an alert that fires when {a} of a {o} changes.'],
      ask: ['be notified when a {o} changes', 'get pinged whenever a {o} is different', 'hear about it as soon as a {o} moves'],
    },
    {
      verb: 'book',
      name: ['book', 'reserve'],
      desc: ['Book or reserve a {o} for a chosen {a}.', 'Reserve a {o}; confirms {a}.'],
      ask: ['lock in a {o}', 'secure a {o} ahead of time', 'grab a slot for a {o}'],
    },
    {
      verb: 'cancel',
      name: ['cancel'],
      desc: ['Cancel a {o} and report the refund and {a}.'],
      ask: ['call off a {o}', 'back out of a {o}', 'drop a {o} I arranged'],
    },
    {
      verb: 'validate',
      name: ['validate', 'check'],
      desc: ['Validate a {o} and report problems with its {a}.', 'Check whether a {o} is valid, looking at {a}.'],
      ask: ['make sure a {o} is okay', 'double check a {o} for mistakes', 'verify that a {o} is correct'],
    },
    {
      verb: 'send',
      name: ['send', 'share'],
      desc: ['Send a {o} to one or more recipients by email, with its {a}.', 'Share a {o} with other people via a link, including {a}.'],
      ask: ['pass a {o} on to a colleague', 'forward a {o} to someone', 'get a {o} over to my friend'],
    },
  ],
  boiler: [
    'Returns JSON.',
    'Useful for building {t} apps.',
    'Supports pagination and sorting.',
    'Requires an API key.',
    'Results are cached for one hour.',
    'Part of the {v} API.',
    'Rate limited to 60 requests per minute.',
    '',
    '',
    '',
  ],
  openers: ['Hi there!', 'Hey,', 'Hello, hope you can help.', 'Quick question.', 'Okay so', 'Good morning!', ''],
  situations: [
    "I'm dealing with {t} at the moment and",
    'I am sorting out {t} for my family, so',
    'We are in the middle of {t} and',
    'For {t} I am handling this week,',
    '',
  ],
  filters: ['taking into account the {a}', 'with the {a} in mind', 'looking at the {a}', 'based on {a}', 'filtered by {a}'],
  closings: [
    'Can you help me with that?',
    'Thanks a lot in advance!',
    'What would be the best way to do this?',
    'I would really appreciate it.',
    'Is that something you can do?',
    '',
  ],
  argLeads: ['for', 'regarding', 'about'],
};

const HELDOUT: Style = {
  seed: 29,
  actions: [
    {
      verb: 'search',
      name: ['query', 'lookup'],
      desc: ['Looks up {os} matching criteria such as {a}.', 'Query endpoint returning {os} filtered on {a}.'],
      ask: ['track down some {os}', 'dig up {os}', 'scan for {os}'],
    },
    {
      verb: 'get',
      name: ['details', 'info'],
      desc: ['Returns one {o} with all fields ({a}).', 'Fetches a single {o} record by identifier, with {a}.'],
      ask: ['open up the record of a {o}', 'read all the particulars of a {o}', 'inspect a single {o}'],
    },
    {
      verb: 'list',
      name: ['all', 'index'],
      desc: ['Enumerates every {o} on the account along with {a}.'],
      ask: ['have a rundown of all {os}', 'view each {o} on file', 'go through every {o}'],
    },
    {
      verb: 'create',
      name: ['new', 'make'],
      desc: ['Creates a {o}. Accepts {a}.', 'Registers a brand new {o} given {a}.'],
      ask: ['start a new {o}', 'put together a {o}', 'open a {o} entry'],
    },
    {
      verb: 'update',
      name: ['patch', 'set'],
      desc: ['Patches fields ({a}) on a {o} that already exists.'],
      ask: ['revise a {o}', 'correct details on a {o}', 'rework a {o} of mine'],
    },
    {
      verb: 'delete',
      name: ['purge', 'drop'],
      desc: ['Purges a {o} from the system using {a}.'],
      ask: ['throw away a {o}', 'clear out a {o}', 'take down a {o}'],
    },
    {
      verb: 'compare',
      name: ['versus', 'diff'],
      desc: ['Shows the differences between {os} in {a}.'],
      ask: ['contrast some {os}', 'tell apart two {os}', 'line up {os} to pick one'],
    },
    {
      verb: 'recommend',
      name: ['advisor', 'picks'],
      desc: ['Personalised {o} picks ranked on {a}.'],
      ask: ['get advice on which {o} to choose', 'have a {o} picked out for me', 'narrow down to the best {o}'],
    },
    {
      verb: 'track',
      name: ['monitor', 'progress'],
      desc: ['Monitors a {o} and reports progress, including {a}.'],
      ask: ['stay on top of a {o}', 'keep tabs on a {o}', 'watch how a {o} is going'],
    },
    {
      verb: 'stats',
      name: ['insights', 'metrics'],
      desc: ['Computes metrics over {os}: counts, averages and trends by {a}.'],
      ask: ['look at figures for {os}', 'measure how the {os} are doing', 'get the averages over {os}'],
    },
    {
      verb: 'book',
      name: ['booking', 'hold'],
      desc: ['Places a hold on a {o} with {a}.'],
      ask: ['put a hold on a {o}', 'claim a {o} in advance', 'set aside a {o}'],
    },
    {
      verb: 'cancel',
      name: ['void', 'revoke'],
      desc: ['Voids an existing {o}; returns {a}.'],
      ask: ['undo a {o}', 'scrap a {o}', 'retract a {o}'],
    },
    {
      verb: 'send',
      name: ['notify', 'deliver'],
      desc: ['Delivers a {o} to contacts over email or SMS with {a}.'],
      ask: ['let someone have a {o}', 'message a {o} to a friend', 'get a {o} delivered to a coworker'],
    },
  ],
  boiler: [
    'Response is paginated.',
    'Authentication: OAuth 2.',
    'Provided by {v}.',
    'Works for {t} use cases.',
    'Deprecated fields are omitted.',
    '',
    '',
  ],
  openers: ['Hiya.', 'Good afternoon,', 'Alright,', 'Hey assistant,', 'So here is the thing:', ''],
  situations: [
    'Right now I am busy with {t}, and',
    'Since I am handling {t},',
    'With {t} coming up',
    'My partner and I are working on {t} so',
    '',
  ],
  filters: ['paying attention to {a}', 'where {a} matters', 'considering {a}', 'sorted by {a}'],
  closings: ['Could you sort that out?', 'Cheers!', 'Any idea how?', 'Let me know what you find.', 'Much obliged.', ''],
  argLeads: ['for', 'on behalf of', 'concerning'],
};

export const LONG_STYLES = { tune: TUNE, heldout: HELDOUT } as const;
export type LongRequestSet = { tools: Tool[]; gold: Array<{ query: string; expected: string[] }> };

const NAMES = ['Ana', 'Marco', 'Priya', 'Jonas', 'Mei', 'Tom', 'Fatima', 'Lars', 'Sofia', 'Kenji', 'Olu', 'Hannah'];
const PLACES = ['Paris', 'Berlin', 'Tokyo', 'Lisbon', 'Toronto', 'Nairobi', 'Oslo', 'Austin', 'Seoul', 'Lima', 'Denver', 'Porto'];

type Obj = { one: string; many: string; other: string[] };
function parseObject(s: string): Obj {
  const [forms, others] = s.split(': ');
  const [one, many] = forms!.split('/');
  return { one: one!, many: many!, other: others!.split(', ') };
}
const snake = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_');
const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
const words = (s: string) => s.split(/\s+/).filter(Boolean);
const joinAttrs = (as: string[]) => (as.length === 1 ? as[0]! : `${as.slice(0, -1).join(', ')} and ${as.at(-1)!}`);

/**
 * About `count` tools and one request for every `per` tools, of a style. Each (domain, object) gets
 * actions drawn with vendors (so one action on one object may come from two vendors, told apart by
 * their attributes and vendor), until the catalog holds `count` tools.
 */
export function longRequestCatalog(style: keyof typeof LONG_STYLES = 'tune', count = 4000, per = 8): LongRequestSet {
  const st = LONG_STYLES[style];
  const r = rng(st.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const sample = <T>(xs: readonly T[], n: number): T[] => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a.slice(0, n);
  };
  const swap = (phrase: string, p: number) =>
    words(phrase)
      .map((w) => (SWAPS[w] && r() < p ? pick(SWAPS[w]) : w))
      .join(' ');
  const domains = Object.entries(DOMAINS);
  const pairs = domains.flatMap(([d, dom]) => dom.objects.map((o) => ({ d, dom, obj: parseObject(o) })));
  const perPair = Math.ceil(count / pairs.length);
  const tools: Tool[] = [];
  const gold: LongRequestSet['gold'] = [];
  const names = new Set<string>();
  for (const { d, dom, obj } of pairs) {
    const combos = st.actions.flatMap((a) => dom.vendors.map((v) => ({ a, v })));
    for (const { a, v } of sample(combos, perPair)) {
      if (tools.length >= count) break;
      const attrs = sample(dom.attrs, 2 + Math.floor(r() * 2));
      const objWords = words(obj.one);
      const verb = pick(a.name);
      const nameStyle = r();
      let name =
        nameStyle < 0.35
          ? `${v}_${verb}_${snake(a.verb === 'list' || a.verb === 'search' || a.verb === 'stats' ? obj.many : obj.one)}`
          : nameStyle < 0.7
            ? camel([verb, ...objWords])
            : nameStyle < 0.85
              ? snake(`${obj.one} ${verb}`)
              : `${v}.${camel([verb, ...objWords])}`;
      if (names.has(name)) name = `${v}_${name.replace(/^\w+?[._]/, '')}`;
      if (names.has(name)) continue;
      names.add(name);
      const fill = (t: string) =>
        t
          .replaceAll('{os}', obj.many)
          .replaceAll('{o}', obj.one)
          .replaceAll('{a}', joinAttrs(attrs))
          .replaceAll('{t}', d)
          .replaceAll('{v}', v);
      const desc = [fill(pick(a.desc)), fill(pick(st.boiler)), r() < 0.4 ? fill(pick(st.boiler)) : '']
        .filter(Boolean)
        .filter((s, i, xs) => xs.indexOf(s) === i)
        .join(' ');
      const props: Record<string, { type: string; description: string }> = {};
      for (const at of attrs) props[camel(words(at))] = { type: 'string', description: `The ${at} of the ${obj.one}` };
      if (a.verb === 'search' || a.verb === 'list') props.limit = { type: 'integer', description: 'How many results to return' };
      tools.push({ name, description: desc, inputSchema: { type: 'object', properties: props as never, required: [] } });
      if (r() >= 1 / per) continue;
      // The request: opener, situation, the need in other words, one or two of the tool's attributes
      // (their words sometimes swapped), an argument, a closing; 15–40 words.
      const objectSaid = r() < 0.5 ? pick(obj.other) : obj.one;
      const need = pick(a.ask)
        .replaceAll('{os}', objectSaid === obj.one ? obj.many : objectSaid)
        .replaceAll('{o}', objectSaid);
      const shown = sample(attrs, 1 + Math.floor(r() * 2)).map((at) => swap(at, 0.5));
      const filter = r() < 0.8 ? pick(st.filters).replace('{a}', `the ${joinAttrs(shown)}`.replace('the the', 'the')) : '';
      const argument = r() < 0.5 ? `${pick(st.argLeads)} ${r() < 0.5 ? pick(NAMES) : pick(PLACES)}` : '';
      const situation = pick(st.situations).replace('{t}', pick(dom.topic));
      const wish = pick(['I would like to', 'I need to', 'I want to', 'could you help me', 'is there a way to', 'I am trying to']);
      let parts = [pick(st.openers), situation, wish, need, filter, argument].filter(Boolean);
      let text = `${parts.join(' ')}. ${pick(st.closings)}`.trim();
      // Long enough: add the other closing; short enough: drop the opener, then the situation.
      if (words(text).length < 15) text = `${text} ${pick(st.closings.filter(Boolean))} ${pick(st.closings.filter(Boolean))}`;
      while (words(text).length > 40 && parts.length > 3) {
        parts = parts.slice(1);
        text = `${parts.join(' ')}.`;
      }
      gold.push({
        query: text
          .replace(/\s+/g, ' ')
          .replace(/\bthe the\b/g, 'the')
          .replace(/ ,/g, ',')
          .replace(/\.\./g, '.'),
        expected: [name],
      });
    }
  }
  return { tools, gold };
}

if (process.argv[1]?.endsWith('longRequestCatalog.ts')) {
  const arg = (n: string) => (process.argv.includes(n) ? process.argv[process.argv.indexOf(n) + 1] : undefined);
  const style = (arg('--style') ?? 'tune') as keyof typeof LONG_STYLES;
  const set = longRequestCatalog(style);
  const dir = arg('--write');
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `long-${style}-catalog.json`), JSON.stringify({ tools: set.tools }, null, 1));
    writeFileSync(join(dir, `long-${style}-gold.json`), JSON.stringify(set.gold, null, 1));
  }
  const lens = set.gold.map((g) => words(g.query).length);
  console.log(`${style}: ${set.tools.length} tools, ${set.gold.length} requests of ${Math.min(...lens)}–${Math.max(...lens)} words`);
  for (const g of set.gold.slice(0, 8)) console.log(`  ${g.query}  →  ${g.expected[0]}`);
}
