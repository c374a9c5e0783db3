/** Word lists the seed draws realistic values from. */
// prettier-ignore
export const FIRST_NAMES = [
	'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
	'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
	'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Ashley',
	'Donald', 'Kimberly', 'Steven', 'Emily', 'Andrew', 'Donna', 'Paul', 'Michelle', 'Joshua', 'Carol',
	'Kenneth', 'Amanda', 'Kevin', 'Melissa', 'Brian', 'Deborah', 'George', 'Stephanie', 'Timothy', 'Rebecca',
	'José', 'Zoë', 'Renée', 'Chloé', 'Mateo', 'Aaliyah', 'Hiroshi', 'Priya', 'Olumide', 'Siobhán',
];

// prettier-ignore
export const LAST_NAMES = [
	'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
	'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
	'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
	'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
	'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
	"O'Brien", 'McAllister', 'Van der Berg', 'Okafor', 'Yamamoto', 'Patel', 'Kowalski', 'Müller', 'Dubois', 'Ng',
];

// prettier-ignore
export const STREETS = [
	'Maple Ave', 'Oak St', 'Pine Rd', 'Cedar Ln', 'Elm St', 'Willow Way', 'Birch Dr', 'Aspen Ct', 'Spruce St',
	'Lakeview Dr', 'Hillcrest Rd', 'Sunset Blvd', 'Meadow Ln', 'River Rd', 'Park Ave', 'Highland Ave',
	'Washington St', 'Lincoln Ave', 'Jefferson Rd', 'Franklin St', 'Canyon Rd', 'Ridge Rd', 'Valley View Dr',
	'Mountain View Ln', 'Prairie Ct', 'Juniper Way', 'Cottonwood Dr', 'Mesa Dr', 'Columbine Ct', 'Bluebell Ln',
];

export interface Place {
	city: string;
	state: string;
	zip: string;
	county: string;
}

export const PLACES: Record<'acme' | 'globex', readonly Place[]> = {
	acme: [
		{ city: 'Denver', state: 'CO', zip: '80205', county: 'Denver' },
		{ city: 'Aurora', state: 'CO', zip: '80012', county: 'Arapahoe' },
		{ city: 'Lakewood', state: 'CO', zip: '80226', county: 'Jefferson' },
		{ city: 'Boulder', state: 'CO', zip: '80302', county: 'Boulder' },
		{ city: 'Littleton', state: 'CO', zip: '80120', county: 'Arapahoe' },
		{ city: 'Arvada', state: 'CO', zip: '80002', county: 'Jefferson' },
		{ city: 'Westminster', state: 'CO', zip: '80031', county: 'Adams' },
		{ city: 'Centennial', state: 'CO', zip: '80112', county: 'Arapahoe' },
		{ city: 'Golden', state: 'CO', zip: '80401', county: 'Jefferson' },
		{ city: 'Parker', state: 'CO', zip: '80134', county: 'Douglas' },
	],
	globex: [
		{ city: 'Austin', state: 'TX', zip: '78701', county: 'Travis' },
		{ city: 'Round Rock', state: 'TX', zip: '78664', county: 'Williamson' },
		{ city: 'San Marcos', state: 'TX', zip: '78666', county: 'Hays' },
		{ city: 'Georgetown', state: 'TX', zip: '78626', county: 'Williamson' },
	],
};

// prettier-ignore
export const AGENCY_WORDS = {
	first: ['Summit', 'Keystone', 'Front Range', 'Mile High', 'Peak', 'Evergreen', 'Cornerstone', 'Harbor', 'Liberty', 'Pioneer', 'Blue Sky', 'Golden Key', 'Heritage', 'Landmark', 'Compass', 'Redstone'],
	second: ['Realty', 'Properties', 'Real Estate', 'Homes', 'Realty Group', 'Brokers', 'Home Team', 'Partners'],
};

// prettier-ignore
export const TAG_NAMES = [
	'VIP', 'Repeat Client', 'Top Agent', 'Newsletter', 'Holiday Card', 'Referral Partner', 'First-Time Buyer',
	'Investor', 'Relocation', 'Spanish Speaking', 'Prefers Text', 'Do Not Email', 'Commercial', 'New Construction',
	'Radon Interest', 'Sewer Scope', 'Pre-Listing', 'Warranty', 'Military', 'Builder Partner', 'Lender Partner',
	'Title Partner', 'Past Due', 'Review Left', 'Gift Sent',
];

export const SERVICES = [
	{ name: 'Full Home Inspection', price: 425 },
	{ name: 'Condo Inspection', price: 325 },
	{ name: 'Pre-Listing Inspection', price: 395 },
	{ name: 'New Construction Phase Inspection', price: 350 },
	{ name: 'Commercial Walkthrough', price: 650 },
	{ name: '11th Month Warranty Inspection', price: 300 },
];

export const ADD_ONS = [
	{ name: 'Radon Test', price: 150 },
	{ name: 'Sewer Scope', price: 175 },
	{ name: 'Mold Air Sample', price: 125 },
	{ name: 'Thermal Imaging', price: 95 },
	{ name: 'Pool & Spa', price: 110 },
	{ name: 'Additional Outbuilding', price: 85 },
	{ name: 'Wood Destroying Insect Report', price: 75 },
];

// prettier-ignore
export const INSPECTOR_NAMES = ['Alex Rivera', 'Jordan Blake', 'Casey Morgan', 'Sam Whitaker', 'Taylor Brooks', 'Riley Chen'];

// prettier-ignore
export const REFERRAL_SOURCES = ['Google', 'Agent referral', 'Past client', 'Facebook', 'Yelp', 'Zillow', 'Nextdoor'];

export const DISCOUNT_CODES = [
	{ name: 'Military discount', code: 'MIL50' },
	{ name: 'First responder', code: 'HERO25' },
	{ name: 'Repeat client', code: 'WELCOMEBACK' },
	{ name: 'Spring promo', code: 'SPRING10' },
];

export const PROPERTY_TYPES = [
	'Single Family',
	'Condo',
	'Townhouse',
	'Multi-Family',
	'Manufactured',
	'Commercial',
];
export const FOUNDATIONS = ['Basement', 'Crawlspace', 'Slab', 'Pier and Beam'];
export const OCCUPANCIES = ['Occupied', 'Vacant', 'Tenant Occupied'];
export const EVENT_NAMES = [
	{ name: 'Radon drop-off', hours: 0.5 },
	{ name: 'Radon pick-up', hours: 0.5 },
	{ name: 'Sewer scope', hours: 1 },
	{ name: 'Re-inspection', hours: 1.5 },
	{ name: 'Mold sample pick-up', hours: 0.5 },
];

export const REPORT_ATTACHMENTS = [
	'Radon Report',
	'Sewer Scope Report',
	'WDI Report',
	'Mold Lab Results',
	'Thermal Imaging Report',
];
export const DOCUMENT_ATTACHMENTS = [
	{ name: 'Seller Disclosure.pdf', internal: false },
	{ name: 'Inspection Agreement Addendum.pdf', internal: false },
	{ name: 'Site Photos.jpg', internal: false },
	{ name: 'Inspector Notes.txt', internal: true },
	{ name: 'Pricing Worksheet.xlsx', internal: true },
];
