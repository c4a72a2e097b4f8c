/** How the AI may reach outside the plan while writing a section (spec 001). */
export type ToolMode = '' | 'web' | 'research' | 'fact_check' | 'mcp';

/** One subsection of a seeded blueprint: its title, visible hint and hidden AI instructions. */
export interface BlueprintSeedSubsection {
  title: string;
  /** Hidden instructions for the AI: what to cover, what evidence is expected, pitfalls, tone, length. */
  developerPrompt: string;
  /** Visible guidance for the founder, one to three sentences. */
  userHint: string;
  toolMode: ToolMode;
}

/** One section of a seeded blueprint. */
export interface BlueprintSeedSection extends BlueprintSeedSubsection {
  subsections: BlueprintSeedSubsection[];
}

/** The data a blueprint is seeded from: titles, visible hints and hidden AI instructions. */
export interface BlueprintSeed {
  title: string;
  description: string;
  systemPrompt: string;
  publisher: string;
  sections: BlueprintSeedSection[];
}

/**
 * The seeded "Business Plan": the blueprint a new document starts from unless the founder picks
 * another (spec 000, "a fixed default blueprint is preferred"). Its texts are the product's first
 * impression: the hints tell a founder what a reader needs, the prompts make the AI write the way
 * an experienced adviser would.
 */
export const DEFAULT_BLUEPRINT: BlueprintSeed = {
  title: 'Business Plan',
  description:
    'A complete, investor-ready business plan in nine sections, from the executive summary to the funding request. Each section says what investors look for and helps you write it with evidence, not hype.',
  publisher: 'Planwright Studio',
  systemPrompt: `This document is a business plan meant to persuade an investor, lender, accelerator or grant committee. Readers skim first: every section must lead with its main point, then support it with evidence.

Across the whole plan:
- Keep every fact consistent between sections: company name, product names, prices, market sizes, customer numbers, head count, dates, revenue, costs, the amount raised and its use. The Executive Summary and the Financial Plan must agree to the unit.
- Ground claims in evidence: the founder's own data (customers, pilots, sales, letters of intent, usage), reputable third-party sources (name them and their year), or clearly labelled assumptions. Never invent traction, customers, partners, quotes or figures; mark gaps as [TODO: …] with what is needed.
- Show the reasoning behind numbers: bottom-up estimates (customers × price × frequency) beat top-down percentages of a large market.
- Be specific and concrete; avoid buzzwords, superlatives and claims of "no competition".
- Acknowledge the main risks and how the company will handle them; credibility matters more than optimism.
- Write in clear, professional prose in the founder's language, in short paragraphs, using bullet points or small tables when they make comparisons easier. Keep each part to the length its instructions give; an investor would rather read ten sharp pages than forty padded ones.`,
  sections: [
    {
      title: 'Executive Summary',
      toolMode: '',
      userHint:
        'The one page every reader sees first. Write it last, once the other sections are drafted, so it summarises the plan you actually have.',
      developerPrompt: `Write the Executive Summary: a stand-alone overview that lets a busy investor decide in two minutes whether to read on. It must summarise the rest of the plan faithfully; do not introduce facts that appear nowhere else, and use exactly the same figures as the other sections (check the Financial Plan and Funding Request).

Cover, in this order: what the company does and for whom (one or two sentences), the problem and why it matters now, the solution and what makes it better, the market opportunity, traction so far, the business model, the team's key credentials, the headline financials, and the funding ask with its use.

Pitfalls to avoid: hype and superlatives, jargon, vague statements without numbers, burying the ask, and repeating the section headings as filler. If other sections are still empty, write what can be supported and mark the rest as [TODO: …].

Tone: confident, plain and specific. Length: about one page overall (400–600 words across the subsections).`,
      subsections: [
        {
          title: 'Company and Mission',
          toolMode: '',
          userHint:
            'In two or three sentences: what your company does, for whom, and why it exists. Imagine explaining it to an investor in a lift.',
          developerPrompt: `Write a crisp opening paragraph: the company name, what it offers, the customer it serves and the outcome it delivers, then the mission in one sentence. Mention the stage (idea, pre-revenue, revenue, growth) and location if known.

Avoid generic mission statements ("to revolutionise…", "to be the leading…"); state a concrete change for a concrete customer. Length: 60–120 words.`,
        },
        {
          title: 'Problem and Solution',
          toolMode: '',
          userHint:
            'Describe the customer problem you solve and how your product solves it. Concrete examples and numbers (time lost, money wasted) make it convincing.',
          developerPrompt: `Summarise the customer problem and the solution. State who has the problem, how painful and frequent it is (quantify cost, time or risk where the plan supports it), and how customers cope today. Then describe the solution in terms of the outcome for the customer, and the one or two things that make it clearly better than the alternatives. Add "why now" if a recent change (technology, regulation, behaviour) makes the solution possible or urgent.

Keep technical detail for the Products and Services section. Length: 100–150 words.`,
        },
        {
          title: 'Market and Traction',
          toolMode: '',
          userHint:
            'Give the size of your target market and the strongest proof that customers want what you offer: sales, pilots, sign-ups, letters of intent or growth rates.',
          developerPrompt: `Summarise the market opportunity (the serviceable market and the share the company can realistically win, as stated in the Market Analysis) and the traction to date: revenue, paying customers, pilots, waiting-list sign-ups, letters of intent, partnerships, retention or growth rates, each with its date. Lead with the strongest evidence.

Never invent or round up traction. If there is none yet, say what has been validated (interviews, prototype tests) and what the next proof point is. Length: 80–130 words.`,
        },
        {
          title: 'Financial Highlights and Funding Ask',
          toolMode: '',
          userHint:
            'State your key financial targets (revenue, margins, break-even) and how much funding you are asking for and what it will achieve.',
          developerPrompt: `Summarise the financial trajectory and the ask: revenue for the next three to five years (or the first years that matter), gross margin, when the company expects to break even, the amount of funding sought, the instrument if known (equity, convertible, loan, grant), the main uses of the money and the milestones it will reach. Use exactly the figures of the Financial Plan and Funding Request; a mismatch destroys credibility.

A compact table or three to five bullet points works well here. Length: 80–130 words.`,
        },
      ],
    },
    {
      title: 'Company Overview',
      toolMode: '',
      userHint:
        'Who you are as a company: your mission, legal form, ownership, history and where you are today.',
      developerPrompt: `Write the Company Overview: the facts an investor needs to understand the entity they would invest in. Cover the mission and vision, the legal structure and ownership, the company's history and milestones to date, and its current stage.

Evidence investors expect: incorporation details, founding date, cap table basics (founders' and investors' shares), prior funding, key milestones with dates. Pitfalls: a long founding story with no milestones, vague ownership, mission statements full of clichés.

Tone: factual and concise. Length: 250–450 words across the subsections.`,
      subsections: [
        {
          title: 'Mission and Vision',
          toolMode: '',
          userHint:
            'Your mission (what you do every day, for whom) and your vision (where the company will be in five to ten years if it succeeds).',
          developerPrompt: `State the mission in one or two sentences (the concrete change the company makes for its customers) and the vision in two or three (what the company and its market look like in five to ten years if it succeeds). Add up to three values only if they visibly shape decisions (for example how the company treats data or suppliers).

Avoid interchangeable slogans; every sentence should only fit this company. Length: 60–120 words.`,
        },
        {
          title: 'Legal Structure and Ownership',
          toolMode: '',
          userHint:
            'Your legal form, where the company is registered, who owns it and in what proportions, and any funding already raised.',
          developerPrompt: `Describe the legal form (for example a limited company, GmbH, LLC, C-corporation), the country and date of registration, the registered office, and the ownership: founders' and other shareholders' stakes, any option pool, and earlier investment rounds or grants with amounts and dates. If the company is not yet incorporated, say when and in which form it will be, and why.

Do not give legal or tax advice; where the structure raises questions (for example a planned change of jurisdiction), suggest confirming it with a lawyer or tax adviser. Mark unknown details as [TODO: …]. Length: 60–150 words.`,
        },
        {
          title: 'History and Current Status',
          toolMode: '',
          userHint:
            'How the company started and what it has achieved so far. List the milestones with dates, and say where you stand today.',
          developerPrompt: `Tell the company's history briefly as a sequence of dated milestones: founding, first prototype, first customer, key hires, funding, launches. Then describe the current status: stage, team size, products live, customers and the most important next milestone.

Keep the founding story to two or three sentences; investors care about progress and momentum, not anecdotes. A short dated list works well. Length: 100–180 words.`,
        },
      ],
    },
    {
      title: 'Market Analysis',
      toolMode: 'research',
      userHint:
        'Show that you understand your industry, your customers and your competitors, with numbers and sources. This is where investors check whether the opportunity is real.',
      developerPrompt: `Write the Market Analysis: evidence that the market is large enough, reachable and not already well served. Cover the industry and its trends, the target market and its size, customer segments and their needs, and the competitive landscape.

Evidence investors expect: recent figures from named, reputable sources (official statistics, industry associations, analyst reports, company filings) with their year; a bottom-up market sizing; primary research from the founder (interviews, surveys, pilots); named competitors. Research current data where it helps, cite every source, and say when a figure is an estimate.

Pitfalls: quoting a huge global market as if the company could capture it, the "1% of a billion" argument, outdated statistics, claiming there are no competitors, and ignoring substitutes and the status quo.

Tone: analytical and sober. Length: 600–1,000 words across the subsections.`,
      subsections: [
        {
          title: 'Industry Overview',
          toolMode: 'research',
          userHint:
            'Describe your industry: its size, growth, key trends and the changes (technology, regulation, behaviour) that create your opportunity.',
          developerPrompt: `Describe the industry the company operates in: its size and growth rate (with source and year), its structure (main types of players, how value flows), and the two to four trends or changes that matter most for this company, such as new technology, regulation, costs or customer behaviour. Explain in one or two sentences why these trends open a window for this company now.

Research current figures and name the sources; prefer the last two to three years. Avoid a generic history of the industry. Length: 150–250 words.`,
        },
        {
          title: 'Target Market and Market Size',
          toolMode: 'research',
          userHint:
            'Define exactly who your customers are and estimate how many there are and what they spend. A bottom-up estimate (number of customers × price) is the most convincing.',
          developerPrompt: `Define the target market precisely (customer type, geography, size or demographic criteria) and size it. Give the total addressable market (TAM), the serviceable addressable market (SAM, the part the company's offer and channels can reach) and a realistic serviceable obtainable market (SOM) for the next three to five years.

Build the estimate bottom-up where possible: number of target customers × expected annual spend, with each input sourced or labelled as an assumption; cross-check with a top-down figure from a reputable source. Show the arithmetic. Make sure the SOM is consistent with the revenue projections in the Financial Plan.

Avoid inflated TAMs and percentage-of-market guesses without a mechanism. Length: 150–250 words, a small table is welcome.`,
        },
        {
          title: 'Customer Segments and Needs',
          toolMode: '',
          userHint:
            'Describe your main customer groups: who buys, who uses, what they need, how they decide and what they pay today. Evidence from interviews or pilots is gold.',
          developerPrompt: `Describe the one to three most important customer segments. For each: who the buyer and the user are, the job they need done and their main pains, how they solve it today and what that costs them, how they make buying decisions (who decides, budget, cycle length) and what would make them switch. State which segment the company targets first and why.

Use the founder's own evidence (interviews, surveys, pilot results, quotes they have actually collected); never invent quotes or personas presented as real people. Length: 150–250 words.`,
        },
        {
          title: 'Competitive Landscape',
          toolMode: 'research',
          userHint:
            'Name your direct and indirect competitors, including the way customers solve the problem today, and explain honestly where you are better and where you are not.',
          developerPrompt: `Map the competition: three to six named direct competitors, the main indirect alternatives and substitutes, and the status quo (doing nothing, spreadsheets, in-house work). Research current information on competitors (offer, pricing, target customers, funding or size where public) and cite sources.

Compare them on the few criteria customers actually care about, ideally in a small table, and state the company's competitive advantage and how defensible it is (network effects, proprietary data, technology, cost, brand, switching costs, regulation). Acknowledge where competitors are stronger and how the company will respond.

Never claim "no competition"; it signals either no market or no research. Length: 200–300 words.`,
        },
      ],
    },
    {
      title: 'Products and Services',
      toolMode: '',
      userHint:
        'Explain what you sell, how it works, why customers will choose it, how far it is developed and how you protect it.',
      developerPrompt: `Write the Products and Services section: what the company sells and why customers will choose it. Cover the product or service itself, its value proposition and differentiation, its development stage and roadmap, and intellectual property and regulatory matters.

Evidence investors expect: a clear description in customer terms, proof that it works (demos, pilots, test results, usage), a realistic roadmap with dates, and an honest account of IP and regulatory status. Pitfalls: feature lists without benefits, technical jargon, roadmaps without dates or resources, overstating patents (an application is not a granted patent).

Tone: clear enough for a non-specialist investor. Length: 400–700 words across the subsections.`,
      subsections: [
        {
          title: 'Product Description',
          toolMode: '',
          userHint:
            'Describe your product or service as a customer experiences it: what it does, how it is used and what it costs them.',
          developerPrompt: `Describe the product or service from the customer's point of view: what it is, the main use case step by step, the key features (each tied to the benefit it brings), how it is delivered (software, hardware, service, marketplace) and the price points or packages if known. If there are several products, describe the core one first and the others briefly.

Avoid jargon; explain any necessary technical term in a few words. Length: 150–250 words.`,
        },
        {
          title: 'Value Proposition and Differentiation',
          toolMode: '',
          userHint:
            'Why will customers choose you over the alternatives? Quantify the benefit (time saved, costs cut, revenue gained) wherever you can.',
          developerPrompt: `State the value proposition in one sentence (for [customer] who [need], [product] delivers [outcome], unlike [alternative]) and then support it: the quantified benefit for the customer (time or money saved, revenue gained, risk reduced, with the evidence behind it), and the two or three differentiators that competitors cannot easily copy.

Keep it consistent with the Competitive Landscape in the Market Analysis. Avoid unsupported superlatives. Length: 100–200 words.`,
        },
        {
          title: 'Development Stage and Roadmap',
          toolMode: '',
          userHint:
            'Where is the product today (idea, prototype, beta, launched) and what comes next? Give the main milestones with dates.',
          developerPrompt: `Describe the current development stage honestly (concept, prototype, beta, launched, scaling) with evidence such as users, test results or certifications. Then give a roadmap of the next 12–36 months: the main releases or milestones, each with a target date and the resources it needs, and how the roadmap is driven by customer feedback.

Keep the roadmap consistent with the Operations milestones and the Use of Funds. A short dated list or table works well. Length: 100–200 words.`,
        },
        {
          title: 'Intellectual Property and Regulation',
          toolMode: '',
          userHint:
            'List any patents, trademarks, copyrights or trade secrets, and any licences, certifications or regulations your product must meet.',
          developerPrompt: `Describe how the company protects what it builds: patents (granted or applied for, with jurisdictions and dates), trademarks, copyrights, trade secrets, exclusive licences, and who owns the IP (the company, not the founders personally). Then describe the regulatory requirements the product must meet (for example data protection, medical, financial or safety rules), the certifications needed, their status and cost.

If there is no formal IP, say what makes the product hard to copy instead. Do not give legal advice; suggest professional review where the position is unclear. Length: 80–180 words.`,
        },
      ],
    },
    {
      title: 'Marketing and Sales',
      toolMode: '',
      userHint:
        'How you will reach customers, convince them and keep them, and what it costs to win each one.',
      developerPrompt: `Write the Marketing and Sales section: a credible, specific plan for winning customers profitably. Cover positioning and pricing, the channels and customer acquisition plan, and the sales process and retention.

Evidence investors expect: a pricing rationale, results from channels already tested, unit economics (customer acquisition cost, lifetime value, payback period, conversion rates) and a budget that matches the Financial Plan. Pitfalls: "we will go viral", listing every channel without priorities, no acquisition costs, and prices that contradict the financial model.

Tone: practical and numbers-driven. Length: 400–700 words across the subsections.`,
      subsections: [
        {
          title: 'Positioning and Pricing',
          toolMode: 'web',
          userHint:
            'How you want customers to see your offer, and what you will charge. Explain your pricing model and how it compares with competitors.',
          developerPrompt: `Describe the positioning (the target customer, the category, the main benefit and the contrast with alternatives) and the pricing: model (subscription, per unit, usage-based, commission, licence), price levels, and the reasoning behind them, such as value to the customer, competitor prices and costs. Check current competitor pricing on the web where it helps and cite what you find, with the date.

Make sure prices match those used in the Financial Plan. Mention planned discounts, free tiers or trials and their effect on revenue. Length: 120–220 words.`,
        },
        {
          title: 'Channels and Customer Acquisition',
          toolMode: '',
          userHint:
            'Which channels will bring you customers (for example direct sales, partners, search, content, events) and what each customer costs to acquire.',
          developerPrompt: `Describe the two or three priority acquisition channels and why they fit the target customer, then the others planned later. For each priority channel give what has been tested and the results, the expected conversion funnel, the cost per acquired customer and the budget. Summarise the unit economics: customer acquisition cost (CAC), customer lifetime value (LTV), the LTV:CAC ratio and the payback period, labelling assumptions.

Keep the marketing budget consistent with the Financial Plan. Avoid long unprioritised channel lists. Length: 150–250 words.`,
        },
        {
          title: 'Sales Process and Retention',
          toolMode: '',
          userHint:
            'Walk through how a prospect becomes a paying customer, how long it takes, who sells, and how you keep customers coming back.',
          developerPrompt: `Describe the sales process from first contact to signed customer: the steps, who is involved on both sides, the typical sales cycle length and conversion rates, and the sales team or partners needed as the company grows. Then describe onboarding, customer success and retention: churn or repeat-purchase rates (actual or assumed), expansion revenue, and how customer feedback flows back into the product.

Use actual figures where they exist and label assumptions. Length: 120–220 words.`,
        },
      ],
    },
    {
      title: 'Operations',
      toolMode: '',
      userHint:
        'How the business runs day to day: how you produce and deliver, who your key suppliers are, your milestones and the main risks.',
      developerPrompt: `Write the Operations section: show that the company can deliver what it sells, reliably and at the costs in the financial model. Cover the operating model and facilities, suppliers and key resources, the milestones and timeline, and the key risks with their mitigation.

Evidence investors expect: a clear delivery process, named key suppliers or partners and alternatives to them, capacity and how it scales, dated milestones that match the roadmap and the use of funds, and an honest risk assessment. Pitfalls: generic descriptions that would fit any company, ignoring bottlenecks and single points of failure, and hiding risks.

Tone: concrete and practical. Length: 400–700 words across the subsections.`,
      subsections: [
        {
          title: 'Operating Model and Facilities',
          toolMode: '',
          userHint:
            'Describe how your product or service is produced and delivered, where you work from, and what equipment, systems or locations you need.',
          developerPrompt: `Describe how the company creates and delivers its product or service: the main process steps, what is done in-house and what is outsourced, the facilities and locations, the equipment and IT systems, and quality control. Explain how operations scale with volume: current capacity, the next bottleneck, and what it costs to expand.

Be specific to this business; skip steps every company has. Length: 120–220 words.`,
        },
        {
          title: 'Suppliers and Key Resources',
          toolMode: '',
          userHint:
            'List the suppliers, partners, technologies and resources you depend on, and how you would cope if one of them failed.',
          developerPrompt: `Name the critical suppliers, partners, platforms and resources (materials, cloud providers, licences, data sources, logistics, manufacturing), the terms where relevant, and the dependence on each. For every critical dependency give the alternative or fallback, and note any contracts, exclusivity or long lead times.

Do not invent supplier names or contract terms; mark unknowns as [TODO: …]. Length: 80–180 words.`,
        },
        {
          title: 'Milestones and Timeline',
          toolMode: '',
          userHint:
            'List the key milestones for the next 12 to 36 months (product, customers, hires, funding) with target dates.',
          developerPrompt: `Give a dated list or table of the key milestones for the next 12–36 months: product releases, customer and revenue targets, key hires, regulatory approvals, new markets and funding events. For each milestone add a measurable success criterion where possible.

Keep it consistent with the Development Stage and Roadmap, the hiring plan and the Use of Funds; investors will check that the money takes the company to a clear next milestone. Length: 80–180 words.`,
        },
        {
          title: 'Key Risks and Mitigation',
          toolMode: '',
          userHint:
            'Name the biggest risks to your plan (market, execution, technology, regulation, finance) and what you are doing about each one.',
          developerPrompt: `List the four to six most important risks across market (demand, competition), execution (team, hiring, operations), technology, regulation and finance (cash, funding). For each: what could happen, how likely and how serious it is, and the concrete mitigation or early warning sign the company will watch. A compact table works well.

Be candid: a plan that names its real risks is more credible than one that hides them. Avoid token risks with trivial answers. Length: 150–250 words.`,
        },
      ],
    },
    {
      title: 'Management Team',
      toolMode: '',
      userHint:
        'Investors back people. Show why this team can execute this plan, who advises you, and who you still need to hire.',
      developerPrompt: `Write the Management Team section: convince the reader that this team can execute this plan. Cover the founders and key team members, advisors and board, and the hiring plan.

Evidence investors expect: relevant experience and achievements (past companies, results, domain expertise) tied to the roles they will play, the founders' commitment (full-time or not, equity), the gaps in the team and how they will be filled. Pitfalls: padded biographies, listing titles without achievements, inventing credentials, and hiding team gaps.

Never invent people, employers, degrees or achievements; use only what the founder provides and mark gaps as [TODO: …]. Tone: factual and confident. Length: 300–550 words across the subsections.`,
      subsections: [
        {
          title: 'Founders and Key Team Members',
          toolMode: '',
          userHint:
            'For each founder and key team member: their role, the relevant experience and achievements they bring, and their commitment to the company.',
          developerPrompt: `Present each founder and key team member in a short paragraph: name, role, two or three relevant achievements (with numbers where possible: revenue grown, products shipped, teams led, years in the industry), why they are the right person for this role, and their commitment (full-time or part-time, equity if the founder wants it stated). Show how the team's skills complement each other.

Use only facts the founder has provided. Length: 60–100 words per person.`,
        },
        {
          title: 'Advisors and Board',
          toolMode: '',
          userHint:
            'List your board members, advisors, mentors or investors who actively help you, and what each one contributes.',
          developerPrompt: `List the board members, advisors and mentors who actively support the company: name, background in one line and the specific help they give (industry access, technical review, fundraising, regulation). Mention formal arrangements (board seat, advisory shares) if the founder wants them stated.

Do not list famous names without an actual relationship. If there are none yet, state which advisory expertise the company is seeking. Length: 60–150 words.`,
        },
        {
          title: 'Hiring Plan',
          toolMode: '',
          userHint:
            'Which roles will you hire in the next one to three years, when, and why? Include the gaps in your current team.',
          developerPrompt: `Describe the organisation today (head count by function) and the hiring plan for the next one to three years: the roles, when each is needed, why (which milestone it unlocks) and the expected cost. Name the current gaps in the team (for example no technical co-founder, no sales lead) and how they will be filled.

Keep head count and salary costs consistent with the Financial Plan. A small table works well. Length: 80–180 words.`,
        },
      ],
    },
    {
      title: 'Financial Plan',
      toolMode: '',
      userHint:
        'Your projections for the next three to five years and the assumptions behind them: revenue, costs, profit, cash flow and break-even.',
      developerPrompt: `Write the Financial Plan: projections an investor can follow and trust. Cover the key assumptions, the revenue projections, costs, margins and break-even, and cash flow and funding needs.

Evidence investors expect: explicit, realistic assumptions tied to the rest of the plan (prices from Marketing and Sales, market share within the SOM of the Market Analysis, head count from the Hiring Plan), historical figures if the company has them, three to five years of projections (monthly or quarterly for the first year or two, annual afterwards), and a cash view that shows how long the money lasts.

Pitfalls: hockey-stick growth without a mechanism, margins far above industry norms without explanation, forgetting costs (salaries and employer costs, taxes, customer support, payment fees), and numbers that do not match other sections. Present figures in small tables with the currency stated; never invent historical figures.

Tone: precise and sober. Length: 500–900 words across the subsections, tables included.`,
      subsections: [
        {
          title: 'Key Assumptions',
          toolMode: '',
          userHint:
            'List the assumptions your projections rest on: prices, sales volumes, growth, conversion, churn, costs, salaries, and where each comes from.',
          developerPrompt: `List the key assumptions behind the projections, grouped by revenue drivers (price, volume, conversion, churn, growth), cost drivers (cost of goods, salaries and head count, marketing, rent, tools) and financing (timing and size of funding). For each, give the value and its basis: historical data, a pilot, a competitor benchmark or an industry source (named, with year), or a stated estimate.

Flag the two or three assumptions the plan is most sensitive to, and show briefly what happens if they are 20–30% worse. Length: 120–220 words, a table is welcome.`,
        },
        {
          title: 'Revenue Projections',
          toolMode: '',
          userHint:
            'Project your revenue for the next three to five years, by product or customer segment, and explain how you get there.',
          developerPrompt: `Project revenue for three to five years, broken down by product, segment or channel, derived from the assumptions (customers × price × frequency) rather than a growth percentage. Include historical revenue if any. Explain the growth mechanism year by year (new customers from which channels, expansion, new markets) and check that the result stays within the serviceable obtainable market.

Use a compact table (year, customers, average revenue per customer, revenue). Length: 120–220 words plus the table.`,
        },
        {
          title: 'Costs, Margins and Break-even',
          toolMode: '',
          userHint:
            'Show your main costs, your gross and operating margins, and when the business becomes profitable.',
          developerPrompt: `Present the cost structure and profitability: cost of goods sold and gross margin, operating expenses by category (salaries and head count, sales and marketing, R&D, general and administrative), EBITDA or operating profit by year, and the break-even point (month or year, and the volume it requires). Compare margins with industry benchmarks where possible and explain any large difference.

Make sure salary costs match the Hiring Plan and marketing costs match Marketing and Sales. Use a compact table. Length: 120–220 words plus the table.`,
        },
        {
          title: 'Cash Flow and Funding Needs',
          toolMode: '',
          userHint:
            'Show how cash moves month by month or quarter by quarter, your lowest cash point, and how much funding you need to get through it.',
          developerPrompt: `Describe the cash flow: the monthly burn rate today and over the projection, the runway with current cash, the lowest cash point, working-capital effects (payment terms, inventory) and capital expenditure. Derive the total funding need from the lowest cash point plus a safety buffer of several months, and show when further funding or profitability follows.

The funding need must match the amount in the Funding Request. Length: 100–200 words, with a quarterly table if the data exists.`,
        },
      ],
    },
    {
      title: 'Funding Request',
      toolMode: '',
      userHint:
        'How much money you are raising, on what terms, what you will do with it, and what investors can expect in return.',
      developerPrompt: `Write the Funding Request: a precise ask that follows from the Financial Plan. Cover the amount and structure, the use of funds, and the returns and exit prospects for investors.

Evidence investors expect: an amount justified by the cash-flow plan with runway in months, the instrument and key terms if decided, a breakdown of the use of funds linked to milestones, and a realistic view of how investors could get their money back. Pitfalls: asking for a round number with no link to the plan, vague uses ("growth", "marketing"), fixing a valuation without basis, and promising returns.

Do not give investment or securities-law advice; where terms raise legal questions, suggest professional advice. Tone: direct and businesslike. Length: 250–450 words across the subsections.`,
      subsections: [
        {
          title: 'Amount and Terms',
          toolMode: '',
          userHint:
            'State the amount you are raising, the type of funding (equity, convertible note, loan, grant) and any terms already decided.',
          developerPrompt: `State the amount sought, the instrument (equity, convertible note or SAFE, loan, grant, revenue-based financing) and the terms decided so far (valuation or cap, interest, repayment, minimum ticket, closing date), whether the round is partly committed, and any future rounds planned. Tie the amount to the funding need in the Financial Plan and the runway it buys in months.

Do not invent a valuation or terms the founder has not provided; mark them as [TODO: …]. Length: 60–150 words.`,
        },
        {
          title: 'Use of Funds',
          toolMode: '',
          userHint:
            'Break down how you will spend the money (for example product, hiring, marketing, operations) and which milestones each part achieves.',
          developerPrompt: `Break down the use of funds by category (product development, hiring, sales and marketing, operations, working capital, reserve) with amounts and percentages that add up to the amount requested, and link each category to the milestones it achieves and their dates. A compact table works best.

Keep it consistent with the Financial Plan, the Hiring Plan and the Milestones and Timeline. Length: 80–150 words plus the table.`,
        },
        {
          title: 'Investor Returns and Exit',
          toolMode: '',
          userHint:
            'Explain what investors can expect in return and how they could eventually realise it, for example through an acquisition, a later funding round or dividends.',
          developerPrompt: `Describe how investors could earn a return: the milestones that should raise the company's value before the next round, the realistic exit routes (acquisition by named types of strategic buyers, secondary sale, IPO only if plausible, or for loans the repayment plan and dividends), and relevant comparable transactions in the industry if known and sourced.

Be realistic and never promise returns or specific multiples. Length: 80–150 words.`,
        },
      ],
    },
  ],
};
