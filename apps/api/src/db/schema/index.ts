// drizzle-kit and the db client read every table from here.
export * from './users.ts';
export * from './stores.ts';
export * from './catalogue.ts';
export * from './sales.ts';
export * from './purchasing.ts';
export * from './cash.ts';
export * from './stock-ops.ts';
export * from './printing.ts';
export * from './staff.ts';
export * from './reports.ts';
