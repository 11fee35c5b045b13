import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('list-map-types');
